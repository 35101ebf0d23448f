import ReqtopTerminalUI

/// `?`: every key, by context, from the keymap.
final class HelpScreen: ScrollingScreen {
    var scroll = TextViewState()
    private var pageSize = 10

    let keyContext = KeyContext.table
    var hints: String { Keymap.hintLine(for: .help) }

    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
        scrollCommand(command, page: pageSize)
    }

    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        let lines = ["reqtop keys", ""] + Keymap.helpLines() + [
            "Filters combine with spaces (AND); ! negates a term:",
            "  api status:5xx !method:GET      state:failed      host:example name:login",
        ]
        pageSize = max(1, area.height - 1)
        frame.render(TextView(lines: lines, wrap: true), in: area.inset(horizontal: 1), state: &scroll) // long help wraps at 80 columns
    }
}
