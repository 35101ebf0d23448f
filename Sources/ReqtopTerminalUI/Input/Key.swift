
/// A key press, decoded from curses input.
public enum Key: Hashable, Sendable {
    /// A printable character (UTF-8 text arrives as whole characters).
    case char(Character)
    case up, down, left, right
    case pageUp, pageDown
    case home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl plus a letter, lower-case: Ctrl-A is `.ctrl("a")`.
    case ctrl(Character)
    /// The terminal changed size.
    case resize
    /// F1…F12 (`.function(1)` is F1).
    case function(Int)
    /// Text the user pasted (bracketed paste): text, never keys.
    case paste(String)
    /// A mouse click, double-click or wheel step at a screen cell.
    case mouse(MouseEvent)

    /// The prompt editing step this key stands for, if any (Ctrl-A/E/K/U/W, arrows, Home/End, history).
    public var promptEdit: PromptEdit? {
        switch self {
        case .char(let c): return .insert(c)
        case .backspace, .ctrl("h"): return .deleteBackward
        case .delete, .ctrl("d"): return .deleteForward
        case .left, .ctrl("b"): return .moveLeft
        case .right, .ctrl("f"): return .moveRight
        case .home, .ctrl("a"): return .moveToStart
        case .end, .ctrl("e"): return .moveToEnd
        case .ctrl("k"): return .killToEnd
        case .ctrl("u"): return .killToStart
        case .ctrl("w"): return .deleteWordBackward
        case .up, .ctrl("p"): return .historyPrevious
        case .down, .ctrl("n"): return .historyNext
        default: return nil
        }
    }
}

/// What the mouse did, and where (0-based screen cell).
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case click, doubleClick, wheelUp, wheelDown }
    public var kind: Kind
    public var x: Int
    public var y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
