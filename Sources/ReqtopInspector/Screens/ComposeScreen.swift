import Foundation
import ReqtopNetworking
import ReqtopTasks
import ReqtopTerminalUI

/// The request from `n` (typed, or a pasted curl command or `.http` block), shown exactly as it
/// will go on the wire — the fields the client adds marked `# added` — before anything is sent:
/// Enter sends it, Esc drops it.
struct ComposeDraft {
    var request: HTTPRequest
    /// Said above the request (a paste that held more than one request).
    var note: String?
}

extension InspectorApp {
    func compose(_ request: HTTPRequest, note: String? = nil) {
        composeDraft = ComposeDraft(request: request, note: note)
        composeScroll = TextViewState()
        screen = .compose
    }

    func renderCompose(_ frame: inout Frame, area: Rect) {
        guard let draft = composeDraft else { return }
        let parts = Layout.vertical([.fixed(1), .fill(1)]).split(area)
        frame.buffer.setString(x: parts[0].x, y: parts[0].y, " new request — Enter sends it as shown, Esc drops it",
                               style: Style().bold, maxWidth: parts[0].width)
        var lines = draft.note.map { [$0, ""] } ?? []
        lines += Sanitizer.lines(actions.preview(draft.request))
        frame.render(TextView(lines: lines, wrap: true), in: parts[1].inset(horizontal: 1), state: &composeScroll)
    }

    func handleComposeKey(_ key: Key) -> LoopAction {
        switch key {
        case .enter:
            guard let draft = composeDraft else { return .ignore }
            composeDraft = nil
            screen = .main
            say(actions.send(draft.request))
        case .escape, .ctrl("c"), .char("q"):
            composeDraft = nil
            screen = .main
            say("not sent")
        case .up, .char("k"): composeScroll.offset = max(0, composeScroll.offset - 1)
        case .down, .char("j"): composeScroll.offset += 1
        default: return .ignore
        }
        return .redraw
    }
}
