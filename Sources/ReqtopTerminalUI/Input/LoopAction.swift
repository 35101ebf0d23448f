/// What an event loop does after a key or signal was handled: the answer of every key handler.
public enum LoopAction: Hashable, Sendable {
    /// Draw a new frame (coalesced with other redraws).
    case redraw
    /// Nothing changed on screen.
    case ignore
    /// Leave the loop and restore the terminal.
    case quit
}
