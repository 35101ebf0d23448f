import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks
import ReqtopTerminalUI

/// The request from `n` (typed, or a pasted curl command or `.http` block), shown exactly as it
/// will go on the wire — the fields the client adds marked `# added` — before anything is sent:
/// Enter sends it, Esc drops it.
final class ComposeScreen: InspectorScreen {
    let request: HTTPRequest
    /// Said above the request (a paste that held more than one request).
    let note: String?
    private var scroll = TextViewState()

    init(request: HTTPRequest, note: String? = nil) {
        self.request = request
        self.note = note
    }

    let keyContext = KeyContext.table
    let hints = "Enter send  Esc drop  ↑↓ scroll"

    /// Its keys are its own: nothing else happens until the request is sent or dropped.
    func handle(_ key: Key, app: InspectorApp) -> LoopAction? {
        switch key {
        case .enter:
            app.pop()
            app.say(app.actions.send(request))
        case .escape, .ctrl("c"), .char("q"):
            app.pop()
            app.say("not sent")
        case .up, .char("k"): return run(.moveUp, app: app)
        case .down, .char("j"): return run(.moveDown, app: app)
        default: return .ignore
        }
        return .redraw
    }

    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
        switch command {
        case .moveUp: scroll.offset = max(0, scroll.offset - 1)
        case .moveDown: scroll.offset += 1
        default: return .ignore
        }
        return .redraw
    }

    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        let parts = Layout.vertical([.fixed(1), .fill(1)]).split(area)
        frame.buffer.setString(x: parts[0].x, y: parts[0].y, " new request — Enter sends it as shown, Esc drops it",
                               style: Style().bold, maxWidth: parts[0].width)
        var lines = note.map { [$0, ""] } ?? []
        lines += Sanitizer.lines(app.actions.preview(request))
        frame.render(TextView(lines: lines, wrap: true), in: parts[1].inset(horizontal: 1), state: &scroll)
    }
}
