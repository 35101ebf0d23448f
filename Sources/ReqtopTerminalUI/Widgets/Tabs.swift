/// A row of tab titles with the selected one highlighted.
public struct Tabs: Widget {
    public var titles: [String]
    public var selected: Int
    public var style: Style
    public var highlightStyle: Style
    public var divider: String

    public init(_ titles: [String], selected: Int, style: Style = .plain, highlightStyle: Style = Style().reversed, divider: String = "│") {
        self.titles = titles
        self.selected = selected
        self.style = style
        self.highlightStyle = highlightStyle
        self.divider = divider
    }

    /// Each title has a space either side when the row fits `width` so, none when it does not.
    private func padding(within width: Int) -> Int {
        let padded = titles.reduce(0) { $0 + TextWidth.of($1) + 2 } + max(0, titles.count - 1) * TextWidth.of(divider)
        return padded <= width ? 1 : 0
    }

    /// The tab at column `x` of a row `width` wide drawn from `left`, or nil (a divider, past the end).
    public func tab(atColumn x: Int, from left: Int, width: Int = .max) -> Int? {
        let pad = padding(within: width)
        var start = left
        for (i, title) in titles.enumerated() {
            if i > 0 { start += TextWidth.of(divider) }
            let end = start + TextWidth.of(title) + 2 * pad
            if x >= start && x < end { return i }
            start = end
        }
        return nil
    }

    public func render(area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.setStyle(area.row(0), style)
        let space = String(repeating: " ", count: padding(within: area.width))
        var x = area.x
        for (i, title) in titles.enumerated() {
            if i > 0 { x += buffer.setString(x: x, y: area.y, divider, style: style, maxWidth: area.right - x) }
            guard x < area.right else { break }
            let tabStyle = i == selected ? style.patched(with: highlightStyle) : style
            x += buffer.setString(x: x, y: area.y, space + title + space, style: tabStyle, maxWidth: area.right - x)
        }
    }
}
