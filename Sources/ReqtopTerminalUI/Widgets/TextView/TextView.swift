/// Scroll position of a `TextView`, kept between frames.
public struct TextViewState: Hashable, Sendable {
    /// The first source line shown.
    public var offset: Int
    /// The first display column shown when lines are not wrapped.
    public var column: Int
    public init(offset: Int = 0, column: Int = 0) {
        self.offset = offset
        self.column = column
    }

    /// Scrolls by `delta` lines, staying within `0..<lineCount`.
    public mutating func scroll(by delta: Int, lineCount: Int) {
        offset = max(0, min(offset + delta, lineCount - 1))
    }
}

/// Scrollable text, optionally wrapped, or a hex dump of binary content. Lines are asked for only when visible.
public struct TextView: StatefulWidget {
    public let lineCount: Int
    private let lineAt: (Int) -> String
    public var wrap: Bool
    public var style: Style
    /// Occurrences of this are drawn in `highlightStyle`.
    public var highlight: TextSearch?
    public var highlightStyle = Style().reversed
    /// Syntax colouring: styles for character ranges of a drawn row (laid under search highlights).
    public var colorize: ((String) -> [Span])?

    /// A view of `lineCount` lines produced by `line` (untrusted text is fine: it is sanitized).
    public init(lineCount: Int, wrap: Bool = false, style: Style = .plain, line: @escaping (Int) -> String) {
        self.lineCount = lineCount
        lineAt = line
        self.wrap = wrap
        self.style = style
    }

    /// A view of already split lines.
    public init(lines: [String], wrap: Bool = false, style: Style = .plain) {
        self.init(lineCount: lines.count, wrap: wrap, style: style) { lines[$0] }
    }

    /// A view of untrusted text: sanitized, split at line breaks, tabs expanded.
    public init(text: String, wrap: Bool = false, style: Style = .plain) {
        self.init(lines: Sanitizer.lines(text), wrap: wrap, style: style)
    }

    /// A hex dump of `bytes`, 16 per line.
    public init(hexDump bytes: [UInt8], style: Style = .plain) {
        self.init(lineCount: HexDump.lineCount(byteCount: bytes.count), style: style) { HexDump.line($0, of: bytes) }
    }

    public func render(area: Rect, buffer: inout Buffer, state: inout TextViewState) {
        guard !area.isEmpty else { return }
        // At (or past) the last page, the last page shows full, as `less` shows it: with wrapping,
        // its first line may start part-way down (the rows above it belong to the page before).
        let last = lastPage(area: area)
        var skippedRows = 0
        if state.offset >= last.offset {
            state.offset = last.offset
            skippedRows = last.skippedRows
        }
        state.offset = max(0, state.offset)
        var y = area.y
        var index = state.offset
        if wrap { state.column = 0 }
        state.column = max(0, state.column)
        while y < area.bottom, index < lineCount {
            for var row in rows(of: index, width: area.width).dropFirst(index == state.offset ? skippedRows : 0) where y < area.bottom {
                if state.column > 0 { row = Self.dropColumns(state.column, of: row) }
                buffer.setString(x: area.x, y: y, row, style: style, maxWidth: area.width)
                // Colours are worked out on whole rows: not when scrolled sideways (a row may start mid-token).
                if let colorize, state.column == 0 { paint(colorize(row), in: row, area: area, y: y, buffer: &buffer) }
                if let highlight { paint(highlight.ranges(in: row).map { Span($0, highlightStyle) }, in: row, area: area, y: y, buffer: &buffer) }
                y += 1
            }
            index += 1
        }
    }

    /// `row` without its first `columns` display columns (a wide character cut in half becomes a space).
    static func dropColumns(_ columns: Int, of row: String) -> String {
        var dropped = 0
        var rest = Substring(row)
        while dropped < columns, let first = rest.first {
            dropped += TextWidth.of(first)
            rest = rest.dropFirst()
        }
        return (dropped > columns ? " " : "") + rest
    }

    /// The screen rows of line `index`. A wrapped line keeps its indentation on every row (up to
    /// half the width), so nested JSON and markup stay readable.
    private func rows(of index: Int, width: Int) -> [String] {
        let line = Sanitizer.singleLine(lineAt(index))
        guard wrap else { return [line] }
        let indent = min(line.prefix { $0 == " " }.count, width / 2)
        guard indent > 0 else { return TextWidth.wrap(line, width: width) }
        let margin = String(repeating: " ", count: indent)
        return TextWidth.wrap(String(line.dropFirst(indent)), width: width - indent).map { margin + $0 }
    }

    /// Where the last full page starts: the line, and how many of its wrapped rows are above the page.
    private func lastPage(area: Rect) -> (offset: Int, skippedRows: Int) {
        guard wrap else { return (max(0, lineCount - area.height), 0) }
        var rowsBelow = 0
        var index = lineCount
        while index > 0 {
            let rows = rows(of: index - 1, width: area.width).count
            if rowsBelow + rows >= area.height { return (index - 1, rowsBelow + rows - area.height) }
            rowsBelow += rows
            index -= 1
        }
        return (0, 0)
    }

    /// Lays each style over the cells of its character range in `row`.
    private func paint(_ spans: [Span], in row: String, area: Rect, y: Int, buffer: inout Buffer) {
        guard !spans.isEmpty else { return }
        let characters = Array(row)
        for span in spans where span.characters.lowerBound >= 0 && span.characters.upperBound <= characters.count {
            let start = TextWidth.of(String(characters[..<span.characters.lowerBound]))
            let width = TextWidth.of(String(characters[span.characters]))
            buffer.setStyle(Rect(x: area.x + start, y: y, width: width, height: 1).intersection(area), span.style)
        }
    }
}
