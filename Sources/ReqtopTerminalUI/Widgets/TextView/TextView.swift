/// Scroll position of a `TextView`, kept between frames.
public struct TextViewState: Hashable, Sendable {
    /// The first source line shown.
    public var offset: Int
    public init(offset: Int = 0) { self.offset = offset }

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
        state.offset = max(0, min(state.offset, lineCount - 1))
        var y = area.y
        var index = state.offset
        while y < area.bottom, index < lineCount {
            let line = Sanitizer.singleLine(lineAt(index))
            let rows = wrap ? TextWidth.wrap(line, width: area.width) : [line]
            for row in rows where y < area.bottom {
                buffer.setString(x: area.x, y: y, row, style: style, maxWidth: area.width)
                y += 1
            }
            index += 1
        }
    }
}
