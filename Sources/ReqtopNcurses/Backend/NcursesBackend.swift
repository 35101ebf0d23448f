import CNcursesw
import ReqtopTerminalUI

/// The `Backend` over ncurses' standard screen. Create it after curses has started (see `EventLoop`);
/// use it only from the loop's thread.
package final class NcursesBackend: Backend {
    private let colorPairs: ColorPairs
    private var text: [wchar_t] = []

    /// - Parameter colors: false to draw without colours (e.g. `NO_COLOR` is set).
    package init(colors: Bool) {
        colorPairs = ColorPairs(enabled: colors)
    }

    package func size() -> (width: Int, height: Int) {
        var rows: Int32 = 0, cols: Int32 = 0
        cncurses_getmaxyx(cncurses_stdscr(), &rows, &cols)
        return (max(0, Int(cols)), max(0, Int(rows)))
    }

    /// Draws runs of same-styled neighbouring cells with one call each.
    package func draw(_ changes: [CellChange]) {
        var i = 0
        while i < changes.count {
            let first = changes[i]
            text.removeAll(keepingCapacity: true)
            var nextX = first.x
            var j = i
            while j < changes.count, changes[j].y == first.y, changes[j].x == nextX, changes[j].cell.style == first.cell.style {
                for scalar in changes[j].cell.symbol.unicodeScalars { text.append(wchar_t(bitPattern: scalar.value)) }
                if changes[j].cell.symbol.isEmpty { text.append(32) }
                let cell = changes[j].cell
                nextX += cell.width
                j += 1
                // Place whatever follows a wide or composed grapheme explicitly, in case curses
                // measures it differently (emoji + VS16): a misjudged width then cannot shift the row.
                if cell.width != 1 || cell.symbol.unicodeScalars.count > 1 { break }
            }
            let style = first.cell.style
            text.withUnsafeBufferPointer { buffer in
                cncurses_put_run(Int32(first.y), Int32(first.x), buffer.baseAddress, Int32(buffer.count),
                                 attributes(style.modifiers), colorPairs.pair(for: style))
            }
            i = j
        }
    }

    package func clear() { wclear(cncurses_stdscr()) }

    package func flush() {
        wnoutrefresh(cncurses_stdscr())
        doupdate()
    }

    package func hideCursor() { curs_set(0) }
    package func showCursor() { curs_set(1) }
    package func setCursor(x: Int, y: Int) { wmove(cncurses_stdscr(), Int32(y), Int32(x)) }

    private func attributes(_ modifiers: Modifiers) -> attr_t {
        var attrs = cncurses_a_normal()
        if modifiers.contains(.bold) { attrs |= cncurses_a_bold() }
        if modifiers.contains(.dim) { attrs |= cncurses_a_dim() }
        if modifiers.contains(.reverse) { attrs |= cncurses_a_reverse() }
        if modifiers.contains(.underline) { attrs |= cncurses_a_underline() }
        return attrs
    }
}
