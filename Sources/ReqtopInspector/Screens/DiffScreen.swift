import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// `d`: two tasks side by side, line by line (= same, ~ changed, - only in A, + only in B).
final class DiffScreen: ScrollingScreen {
    let a: TaskID
    let b: TaskID
    var scroll = TextViewState()
    private var pageSize = 10
    /// The diff on screen, rebuilt only when a task changes or the width does (it reads and compares bodies).
    private var lines: (key: [Int], lines: [String])?

    init(_ a: TaskID, _ b: TaskID) {
        self.a = a
        self.b = b
    }

    let keyContext = KeyContext.diff
    var hints: String { Keymap.hintLine(for: .help) }

    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
        scrollCommand(command, page: pageSize)
    }

    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        guard let left = app.store.record(a), let right = app.store.record(b) else {
            frame.buffer.setString(x: area.x, y: area.y, "a task of the diff is gone", maxWidth: area.width)
            return
        }
        let parts = Layout.vertical([.fixed(1), .fill(1)]).split(area)
        frame.buffer.setString(x: parts[0].x, y: parts[0].y, " diff \(a) ⟷ \(b)   = same  ~ changed  - only in A  + only in B",
                               style: Style().bold, maxWidth: parts[0].width)
        let key = [a.rawValue, b.rawValue, left.revision, right.revision, parts[1].width]
        if lines?.key != key { lines = (key, TaskDiff.lines(left, right, width: parts[1].width - 2)) }
        pageSize = max(1, parts[1].height - 1)
        frame.render(TextView(lines: lines?.lines ?? []), in: parts[1].inset(horizontal: 1), state: &scroll)
    }
}
