import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// What the bottom-line prompt is asking for.
enum PromptKind: Hashable {
    case filter
    case harPath
    case curlPath
    case newRequestLine
    case newRequestHeader
    case newRequestBody
    case confirmQuit(running: Int)
    case search
    case bodyPath

    var label: String {
        switch self {
        case .bodyPath: "save the body to: "
        case .search: "search: "
        case .filter: "filter (text status:4xx method:POST state:failed host:x name:x !term): "
        case .harPath: "save HAR to: "
        case .curlPath: "save curl command to: "
        case .newRequestLine: "new request (METHOD URL): "
        case .newRequestHeader: "header (Name: value, empty to go on): "
        case .newRequestBody: "body, sent as typed (empty for none): "
        case .confirmQuit(let running): "quit? (y/n) \(running) request\(running == 1 ? " is" : "s are") still running or queued "
        }
    }

    /// Prompts that share one history.
    var historyKey: PromptKind {
        if case .confirmQuit = self { return .confirmQuit(running: 0) }
        return self
    }
}

/// An open prompt: its kind, the line being edited, and a new request being assembled.
struct ActivePrompt {
    var kind: PromptKind
    var state: PromptState
    var draft: HTTPRequest?
    /// Why the prompt is open again (the last input was refused), shown before the label.
    var note: String?

    var label: String { (note.map { "\($0) · " } ?? "") + kind.label }
}

/// A prompt on the bottom line, taking every key until Enter or Esc.
final class PromptOverlay: InspectorOverlay {
    var active: ActivePrompt

    init(_ active: ActivePrompt) { self.active = active }

    func handle(_ key: Key, app: InspectorApp) -> LoopAction {
        if case .confirmQuit = active.kind {
            app.overlay = nil
            if key == .char("y") || key == .char("Y") { return .quit }
            app.say("not quitting")
            return .redraw
        }
        switch key {
        case .escape, .ctrl("c"):
            app.overlay = nil
            app.say("prompt closed, nothing done")
        case .enter:
            let line = active.state.submit()
            app.promptHistory[active.kind.historyKey] = active.state.history
            app.overlay = nil
            app.submit(line, of: active)
        default:
            guard let edit = key.promptEdit else { return .ignore }
            active.state.apply(edit)
        }
        return .redraw
    }

    /// A paste goes into the line (a pasted request at the `n` prompt opens the compose screen);
    /// one-line prompts take a multi-line paste as one line, the body keeps its line breaks.
    func paste(_ text: String, app: InspectorApp) {
        if active.kind == .newRequestLine {
            app.overlay = nil
            return app.submitTypedRequest(active.state.text + text, keepingText: text)
        }
        let inserted = active.kind == .newRequestBody ? text : text.replacingEvery("\n", with: " ")
        for character in inserted { active.state.apply(.insert(character)) }
    }

    func renderBottomLine(_ frame: inout Frame, area: Rect) -> Bool {
        let widget = Prompt(label: active.label, style: Style().reversed)
        var state = active.state
        frame.buffer.setStyle(area, Style().reversed)
        frame.render(widget, in: area, state: &state)
        let cursor = widget.cursorPosition(area: area, state: state)
        frame.setCursor(x: cursor.x, y: cursor.y)
        return true
    }
}

extension InspectorApp {
    func open(_ kind: PromptKind, text: String, draft: HTTPRequest? = nil, note: String? = nil) {
        overlay = PromptOverlay(ActivePrompt(kind: kind, state: PromptState(text: text, history: promptHistory[kind.historyKey] ?? []),
                                             draft: draft, note: note))
    }

    /// The open prompt, if the overlay is one.
    var prompt: ActivePrompt? { (overlay as? PromptOverlay)?.active }

    /// What the `n` prompt got: `METHOD URL` goes on to the header and body prompts; a pasted
    /// curl command or `.http` request goes straight to the compose screen.
    func submitTypedRequest(_ input: String, keepingText text: String) {
        switch TypedRequest.parse(input) {
        case .failure(let error):
            open(.newRequestLine, text: text.containsBytes("\n") ? "" : text, note: error.message)
        case .success(let parsed):
            let whole = input.trimmingWhitespaceAndNewlines()
            if whole.containsBytes("\n") || whole.hasPrefix("curl") { return push(ComposeScreen(request: parsed.request, note: parsed.note)) }
            open(.newRequestHeader, text: "", draft: parsed.request)
        }
    }

    func submit(_ line: String, of active: ActivePrompt) {
        let text = line.trimmingWhitespace()
        switch active.kind {
        case .filter:
            tableScreen.applyFilter(text, app: self)
        case .harPath:
            guard !text.isEmpty else { return say("no path given: nothing saved") }
            say(actions.saveHAR(to: text))
        case .curlPath:
            guard !text.isEmpty, let record = selectedID.flatMap(store.record) else { return say("nothing exported") }
            say(actions.exportCurl(record, to: text))
        case .newRequestLine:
            guard !text.isEmpty else { return say("no request sent") }
            submitTypedRequest(line, keepingText: text)
        case .newRequestHeader:
            guard var draft = active.draft else { return }
            if text.isEmpty {
                let bodyAllowed = !["GET", "HEAD"].contains(draft.method)
                if bodyAllowed { return open(.newRequestBody, text: "", draft: draft) }
                return push(ComposeScreen(request: draft))
            }
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                return open(.newRequestHeader, text: text, draft: draft, note: "a header looks like Name: value")
            }
            draft.headers.append(HTTPHeader(name: String(text[..<colon]).trimmingWhitespace(),
                                            value: String(text[text.index(after: colon)...]).trimmingWhitespace()))
            open(.newRequestHeader, text: "", draft: draft)
        case .newRequestBody:
            guard var draft = active.draft else { return }
            // Sent as typed: no Content-Type is added (type one at the header prompt).
            if !line.isEmpty { draft.body = .data(Data(line.utf8)) }
            push(ComposeScreen(request: draft))
        case .bodyPath:
            guard !text.isEmpty, let record = selectedID.flatMap(store.record) else { return say("nothing saved") }
            say(actions.saveBody(record, to: text))
        case .search:
            (top as? DetailScreen)?.find(line, app: self)
        case .confirmQuit:
            break
        }
    }
}
