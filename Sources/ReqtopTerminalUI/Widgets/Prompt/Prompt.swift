/// Draws a `PromptState` as `label` + text on one row, scrolled so the cursor stays visible.
///
/// After rendering, `cursorPosition(area:state:)` says where the frame's cursor belongs.
public struct Prompt: StatefulWidget {
    public var label: String
    public var style: Style

    public init(label: String = "> ", style: Style = .plain) {
        self.label = label
        self.style = style
    }

    public func render(area: Rect, buffer: inout Buffer, state: inout PromptState) {
        guard !area.isEmpty else { return }
        let (start, _) = layout(area: area, state: state)
        let labelWidth = buffer.setString(x: area.x, y: area.y, label, style: style, maxWidth: area.width)
        let visible = String(state.characters[start...])
        buffer.setString(x: area.x + labelWidth, y: area.y, visible, style: style, maxWidth: area.width - labelWidth)
    }

    /// The screen position of the cursor for `state` drawn in `area`.
    public func cursorPosition(area: Rect, state: PromptState) -> (x: Int, y: Int) {
        let (_, column) = layout(area: area, state: state)
        return (min(area.right - 1, area.x + column), area.y)
    }

    /// First visible character index and the cursor's column within `area`.
    private func layout(area: Rect, state: PromptState) -> (start: Int, column: Int) {
        let labelWidth = min(area.width, TextWidth.of(Sanitizer.singleLine(label)))
        let room = max(1, area.width - labelWidth)
        var start = 0
        var widthBeforeCursor = columns(state.characters[0..<state.cursor])
        while widthBeforeCursor >= room, start < state.cursor {
            widthBeforeCursor -= columns(state.characters[start..<start + 1])
            start += 1
        }
        return (start, labelWidth + widthBeforeCursor)
    }

    private func columns(_ chars: ArraySlice<Character>) -> Int {
        chars.reduce(0) { $0 + max(1, TextWidth.of(Sanitizer.singleLine(String($1)))) }
    }
}
