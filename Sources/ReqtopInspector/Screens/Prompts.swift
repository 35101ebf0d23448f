import Foundation
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

extension InspectorApp {
    func open(_ kind: PromptKind, text: String, draft: HTTPRequest? = nil, note: String? = nil) {
        prompt = ActivePrompt(kind: kind, state: PromptState(text: text, history: promptHistory[kind.historyKey] ?? []),
                              draft: draft, note: note)
    }

    func handlePromptKey(_ key: Key) -> LoopAction {
        guard var active = prompt else { return .ignore }
        if case .confirmQuit = active.kind {
            prompt = nil
            if key == .char("y") || key == .char("Y") { return .quit }
            say("not quitting")
            return .redraw
        }
        switch key {
        case .escape, .ctrl("c"):
            prompt = nil
            say("prompt closed, nothing done")
        case .enter:
            let line = active.state.submit()
            promptHistory[active.kind.historyKey] = active.state.history
            prompt = nil
            submit(line, of: active)
        default:
            guard let edit = key.promptEdit else { return .ignore }
            active.state.apply(edit)
            prompt = active
        }
        return .redraw
    }

    /// What the `n` prompt got: `METHOD URL` goes on to the header and body prompts; a pasted
    /// curl command or `.http` request goes straight to the compose screen.
    func submitTypedRequest(_ input: String, keepingText text: String) {
        switch TypedRequest.parse(input) {
        case .failure(let error):
            open(.newRequestLine, text: text.contains("\n") ? "" : text, note: error.message)
        case .success(let parsed):
            let whole = input.trimmingCharacters(in: .whitespacesAndNewlines)
            if whole.contains("\n") || whole.hasPrefix("curl") { return compose(parsed.request, note: parsed.note) }
            open(.newRequestHeader, text: "", draft: parsed.request)
        }
    }

    private func submit(_ line: String, of active: ActivePrompt) {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch active.kind {
        case .filter:
            do {
                filter = try TaskFilter(parsing: text)
                table.select(0, rowCount: 1)
                anchor = nil
                say(filter.isEmpty ? "filter cleared" : "filter: \(filter)")
            } catch {
                open(.filter, text: text, note: "not applied: \(error)")
            }
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
                return compose(draft)
            }
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                return open(.newRequestHeader, text: text, draft: draft, note: "a header looks like Name: value")
            }
            draft.headers.append(HTTPHeader(name: String(text[..<colon]).trimmingCharacters(in: .whitespaces),
                                            value: String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            open(.newRequestHeader, text: "", draft: draft)
        case .newRequestBody:
            guard var draft = active.draft else { return }
            // Sent as typed: no Content-Type is added (type one at the header prompt).
            if !line.isEmpty { draft.body = .data(Data(line.utf8)) }
            compose(draft)
        case .bodyPath:
            guard !text.isEmpty, let record = selectedID.flatMap(store.record) else { return say("nothing saved") }
            say(actions.saveBody(record, to: text))
        case .search:
            guard !line.isEmpty else {
                detailSearch = nil
                return say("search cleared")
            }
            detailSearch = TextSearch(line)
            detailMatch = nil
            jumpToMatch(forward: true, includingCurrent: true)
        case .confirmQuit:
            break
        }
    }
}
