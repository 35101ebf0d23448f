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

    /// The tab at column `x` of a row drawn from `left`, or nil (a divider, past the end).
    public func tab(atColumn x: Int, from left: Int) -> Int? {
        var start = left
        for (i, title) in titles.enumerated() {
            if i > 0 { start += TextWidth.of(divider) }
            let end = start + TextWidth.of(title) + 2
            if x >= start && x < end { return i }
            start = end
        }
        return nil
    }

    public func render(area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.setStyle(area.row(0), style)
        var x = area.x
        for (i, title) in titles.enumerated() {
            if i > 0 { x += buffer.setString(x: x, y: area.y, divider, style: style, maxWidth: area.right - x) }
            guard x < area.right else { break }
            let tabStyle = i == selected ? style.patched(with: highlightStyle) : style
            x += buffer.setString(x: x, y: area.y, " \(title) ", style: tabStyle, maxWidth: area.right - x)
        }
    }
}
