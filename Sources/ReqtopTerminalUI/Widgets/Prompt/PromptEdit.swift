/// One editing step of a single-line prompt (keys are mapped to these by the event layer).
public enum PromptEdit: Hashable, Sendable {
    case insert(Character)
    /// Delete the character before the cursor (Backspace).
    case deleteBackward
    /// Delete the character under the cursor (Delete).
    case deleteForward
    case moveLeft
    case moveRight
    /// Home, Ctrl-A.
    case moveToStart
    /// End, Ctrl-E.
    case moveToEnd
    /// Ctrl-K: delete from the cursor to the end.
    case killToEnd
    /// Ctrl-U: delete from the start to the cursor.
    case killToStart
    /// Ctrl-W: delete the word before the cursor.
    case deleteWordBackward
    /// Up: the previous history entry.
    case historyPrevious
    /// Down: the next history entry (or back to the draft).
    case historyNext
}
