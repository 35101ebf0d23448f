/// One frame being drawn: the buffer to fill and where the cursor should be afterwards.
public struct Frame {
    /// The cells of this frame, blank at the start of `Terminal.draw`.
    public var buffer: Buffer
    /// The cursor position after the frame, or `nil` to hide the cursor.
    public var cursor: (x: Int, y: Int)?

    public init(buffer: Buffer) {
        self.buffer = buffer
    }

    /// The whole screen.
    public var area: Rect { buffer.area }

    /// Draws `widget` into `area`.
    public mutating func render<W: Widget>(_ widget: W, in area: Rect) {
        widget.render(area: area.intersection(buffer.area), buffer: &buffer)
    }

    /// Draws a stateful `widget` into `area`, updating `state` (scroll offsets and the like).
    public mutating func render<W: StatefulWidget>(_ widget: W, in area: Rect, state: inout W.State) {
        widget.render(area: area.intersection(buffer.area), buffer: &buffer, state: &state)
    }

    /// Shows the cursor at (x, y) after this frame.
    public mutating func setCursor(x: Int, y: Int) { cursor = (x, y) }
}

/// How often a terminal UI redraws at most. A frame is drawn as soon as something changed when
/// the last one is at least an interval old; changes inside the interval wait for its end — so a
/// change shows within one interval (≤ 17 ms at 60), and an idle screen is not redrawn at all.
public enum FrameRate {
    public static let defaultFramesPerSecond = 60
}
