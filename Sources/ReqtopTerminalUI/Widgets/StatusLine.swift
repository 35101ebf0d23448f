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
        // The right part (e.g. "? help") stays when there is room for it and a few cells of the left;
        // a left part that does not fit ends in …, never cut silently.
        let leftText = Sanitizer.singleLine(left)
        let keepsRight = rightWidth > 0 && (TextWidth.of(leftText) + 1 + rightWidth <= row.width || rightWidth + 1 + 8 <= row.width)
        let leftRoom = keepsRight ? row.width - rightWidth - 1 : row.width
        buffer.setString(x: row.x, y: row.y, TextWidth.truncate(leftText, to: leftRoom), style: style, maxWidth: leftRoom)
        if keepsRight {
            buffer.setString(x: row.right - rightWidth, y: row.y, right, style: style, maxWidth: rightWidth)
        }
    }
}
