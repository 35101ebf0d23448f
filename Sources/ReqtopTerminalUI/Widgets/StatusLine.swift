/// A full-width row with text on the left and, if it fits, text on the right.
public struct StatusLine: Widget {
    public var left: String
    public var right: String
    public var style: Style

    public init(left: String, right: String = "", style: Style = Style().reversed) {
        self.left = left
        self.right = right
        self.style = style
    }

    public func render(area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, with: Cell(" ", style: style))
        let rightWidth = TextWidth.of(Sanitizer.singleLine(right))
        let leftUsed = buffer.setString(x: row.x, y: row.y, left, style: style, maxWidth: row.width)
        if rightWidth > 0, leftUsed + 1 + rightWidth <= row.width {
            buffer.setString(x: row.right - rightWidth, y: row.y, right, style: style, maxWidth: rightWidth)
        }
    }
}
