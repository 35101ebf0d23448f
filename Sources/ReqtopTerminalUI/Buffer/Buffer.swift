/// A grid of cells, `width` × `height`, that widgets draw into.
///
/// Text written with `setString` is sanitized first, so nothing raw ever reaches a cell.
public struct Buffer: Equatable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle at (0, 0).
    public var area: Rect { Rect(width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { setCell(x: x, y: y, newValue) }
    }

    /// Every cell back to blank.
    public mutating func reset() {
        for i in cells.indices { cells[i] = .blank }
    }

    /// Puts `cell` at (x, y), blanking any half of a wide grapheme it would break. Out of bounds is ignored.
    public mutating func setCell(x: Int, y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = y * width + x
        if cells[i].isContinuation, x > 0 { cells[i - 1] = Cell(style: cells[i - 1].style) }
        if !cells[i].isContinuation, x + 1 < width, cells[i + 1].isContinuation {
            cells[i + 1] = Cell(style: cells[i + 1].style)
        }
        cells[i] = cell
    }

    /// Writes `text` (sanitized to a single line) starting at (x, y).
    ///
    /// - Parameters:
    ///   - maxWidth: columns available; the buffer's right edge if `nil`. A wide grapheme that
    ///     does not fit whole is replaced by a blank column and writing stops.
    /// - Returns: the columns used.
    @discardableResult
    public mutating func setString(x: Int, y: Int, _ text: String, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(width, x + (maxWidth ?? width))
        var column = x
        if TextWidth.isPrintableASCII(text) { // nothing to sanitize, one column per byte
            let symbols = Self.asciiSymbols
            for byte in text.utf8 {
                guard column < limit else { break }
                if column >= 0 { setCell(x: column, y: y, Cell(symbols[Int(byte)], style: style)) }
                column += 1
            }
            return column - x
        }
        return put(Sanitizer.singleLine(text).lazy.map { (String($0), TextWidth.of($0)) }, x: x, y: y, limit: limit, style: style)
    }

    /// Writes graphemes measured already (`width` 0: skipped) from column `x` up to `limit`; a
    /// wide one that does not fit leaves a space. Returns the columns written.
    private mutating func put<S: Sequence>(_ graphemes: S, x: Int, y: Int, limit: Int, style: Style) -> Int where S.Element == (String, Int) {
        var column = x
        for (symbol, w) in graphemes {
            if w == 0 { continue }
            if column + w > limit {
                if column < limit { setCell(x: column, y: y, Cell(" ", style: style)); column += 1 }
                break
            }
            if column >= 0 { setCell(x: column, y: y, Cell(symbol, style: style)) }
            if w == 2 { setCell(x: column + 1, y: y, Cell("", style: style, isContinuation: true)) }
            column += w
        }
        return column - x
    }

    /// The symbol of each ASCII byte, made once rather than for every cell written.
    private static let asciiSymbols: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// `text` in exactly `width` columns at (x, y): truncated with `…` when longer, padded with
    /// spaces (on the left with `alignRight`) when shorter — as `setString` of `TextWidth.pad`,
    /// without making the padded string when the text is printable ASCII.
    public mutating func setPadded(x: Int, y: Int, _ text: String, width: Int, alignRight: Bool = false, style: Style = .plain) {
        guard width > 0 else { return }
        let count = text.utf8.count
        guard TextWidth.isPrintableASCII(text) else {
            // Each grapheme measured once; cut to width − 1 columns and `…` when it is too long.
            var graphemes: [(String, Int)] = []
            var used = 0
            for grapheme in Sanitizer.singleLine(text) {
                let w = TextWidth.of(grapheme)
                if w > 0 { graphemes.append((String(grapheme), w)); used += w }
            }
            if used > width {
                used = 0
                graphemes = Array(graphemes.prefix { grapheme in
                    guard used + grapheme.1 <= width - 1 else { return false }
                    used += grapheme.1
                    return true
                })
                graphemes.append(("…", 1))
                used += 1
            }
            let fill = repeatElement((" ", 1), count: width - used)
            let limit = min(self.width, x + width)
            _ = alignRight ? put(fill + graphemes, x: x, y: y, limit: limit, style: style)
                : put(graphemes + fill, x: x, y: y, limit: limit, style: style)
            return
        }
        if count > width { // cut: the first width − 1 characters and `…`
            setString(x: x, y: y, text, style: style, maxWidth: width - 1)
            setCell(x: x + width - 1, y: y, Cell("…", style: style))
            return
        }
        let textStart = alignRight ? x + width - count : x
        let (first, end) = (max(x, 0), min(x + width, self.width))
        if first < end {
            for column in first..<end where column < textStart || column >= textStart + count { setCell(x: column, y: y, Cell(" ", style: style)) }
        }
        setString(x: textStart, y: y, text, style: style, maxWidth: count)
    }

    /// Lays `style` over every cell in `area` (see `Style.patched(with:)`).
    public mutating func setStyle(_ area: Rect, _ style: Style) {
        let clipped = area.intersection(self.area)
        for y in clipped.y..<clipped.bottom {
            for x in clipped.x..<clipped.right {
                cells[y * width + x].style = cells[y * width + x].style.patched(with: style)
            }
        }
    }

    /// Fills `area` with `cell`.
    public mutating func fill(_ area: Rect, with cell: Cell) {
        let clipped = area.intersection(self.area)
        for y in clipped.y..<clipped.bottom {
            for x in clipped.x..<clipped.right { setCell(x: x, y: y, cell) }
        }
    }

    /// The rows as text (continuation cells skipped), for tests and debugging.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !cells[y * width + x].isContinuation { line += cells[y * width + x].symbol }
            return line
        }
    }
}
