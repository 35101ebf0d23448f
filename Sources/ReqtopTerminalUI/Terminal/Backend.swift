/// Where frames end up: a real terminal (ncurses) or memory (tests).
///
/// A backend is used from one thread, the one that owns the `Terminal`.
public protocol Backend: AnyObject {
    /// The screen size in columns and rows.
    func size() -> (width: Int, height: Int)
    /// Draws changed cells; continuation cells never appear, a wide grapheme covers the column to its right.
    func draw(_ changes: [CellChange])
    /// Blanks the whole screen (the next flush repaints everything).
    func clear()
    /// Makes what was drawn visible.
    func flush()
    func hideCursor()
    func showCursor()
    /// Moves the cursor to a column and row.
    func setCursor(x: Int, y: Int)
}
