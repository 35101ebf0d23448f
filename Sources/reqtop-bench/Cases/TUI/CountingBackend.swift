import ReqtopTerminalUI

/// A backend that counts the bytes a terminal would receive for each frame: a cursor move (`ESC[row;colH`) when the
/// next cell is not where the cursor already is, an SGR sequence when the style changes, then the cell's UTF-8 text —
/// what a plain cell-diff writer emits (ncurses does about the same, sometimes less by using cursor shortcuts).
final class CountingBackend: Backend {
    let width: Int
    let height: Int
    /// Bytes per flushed frame, in order.
    private(set) var bytesPerFlush: [Int] = []
    private var pending = 0
    private var cursor = (x: -1, y: -1)
    private var style: Style?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    func size() -> (width: Int, height: Int) { (width, height) }

    func draw(_ changes: [CellChange]) {
        for change in changes {
            if change.x != cursor.x || change.y != cursor.y { pending += Self.moveBytes(x: change.x, y: change.y) }
            if style != change.cell.style {
                pending += Self.sgrBytes(change.cell.style)
                style = change.cell.style
            }
            pending += change.cell.symbol.utf8.count
            cursor = (change.x + change.cell.width, change.y)
        }
    }

    func clear() {
        pending += 4 // ESC [ 2 J
        cursor = (-1, -1)
    }

    func flush() {
        bytesPerFlush.append(pending)
        pending = 0
    }

    func hideCursor() { pending += 6 } // ESC [ ? 2 5 l
    func showCursor() { pending += 6 }

    func setCursor(x: Int, y: Int) {
        pending += Self.moveBytes(x: x, y: y)
        cursor = (x, y)
    }

    /// `ESC [ row ; col H`
    private static func moveBytes(x: Int, y: Int) -> Int { 4 + digits(y + 1) + digits(x + 1) }

    /// `ESC [ 0 ; 1 ; 38;5;N ; 48;5;N m` with only the parts the style needs.
    private static func sgrBytes(_ style: Style) -> Int {
        var n = 4 // ESC [ 0 m
        if style.modifiers.contains(.bold) { n += 2 }
        if style.modifiers.contains(.dim) { n += 2 }
        if style.modifiers.contains(.reverse) { n += 2 }
        if style.modifiers.contains(.underline) { n += 2 }
        if let fg = style.fg.paletteIndex { n += 6 + digits(fg) }
        if let bg = style.bg.paletteIndex { n += 6 + digits(bg) }
        return n
    }

    private static func digits(_ value: Int) -> Int { value < 10 ? 1 : (value < 100 ? 2 : (value < 1000 ? 3 : 4)) }
}
