import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// The inspector over a `TaskStore`: a stack of screens (the task table at the bottom; detail,
/// diff, help and a new request pushed over it), at most one overlay (a prompt or a one-key menu)
/// that takes keys first, the bottom line, and the commands that are not any one screen's (those
/// acting on the selected task, saving, quitting). Confined to the UI thread: background work only
/// changes the store and asks the loop for a redraw.
package final class InspectorApp {
    /// How much of a running task's body the Body tab shows live (the manager keeps that much per running task).
    package static let liveBodyPreviewBytes = 256 << 10

    package let store: TaskStore
    let actions: InspectorActions
    /// Shown in the header: the list being replayed, or "interactive session".
    package var title: String
    /// Said after the title each frame (an attached program's connection), when set.
    package var titleStatus: (() -> String)?

    /// The table, always at the bottom of the stack.
    let tableScreen: TableScreen
    /// The screens over the table, the last on top.
    private(set) var pushed: [any InspectorScreen] = []
    /// A prompt or a menu: it takes the next keys before any screen.
    var overlay: (any InspectorOverlay)?

    /// The screen keys go to.
    var top: any InspectorScreen { pushed.last ?? tableScreen }

    /// The event log under the table (`l`).
    var showLog = false
    /// Soft wrap in the detail view (`z`), kept from one task to the next.
    var detailWrap = true
    /// How the Body tab shows bodies (`v`), kept from one task to the next.
    var bodyView = BodyView.auto
    var promptHistory: [PromptKind: [String]] = [:]
    var message: (text: String, time: Double)?

    package init(store: TaskStore, actions: InspectorActions, title: String) {
        self.store = store
        self.actions = actions
        self.title = title
        tableScreen = TableScreen(store: store)
    }

    /// Puts `screen` on top.
    func push(_ screen: any InspectorScreen) { pushed.append(screen) }

    /// Back to the screen below (never below the table).
    func pop() { if !pushed.isEmpty { pushed.removeLast() } }

    /// The task the keys that act on one task act on: the table's selected row, or the detail's task.
    var selectedID: TaskID? { top.selectedTask }

    /// Shows `text` on the bottom line for a few seconds.
    package func say(_ text: String) { message = (text, Date().timeIntervalSince1970) }

    // MARK: Keys

    /// Handles one key press: the overlay first, then the top screen, then the keymap.
    package func handle(_ key: Key) -> LoopAction {
        if key == .resize { return .redraw }
        if case .paste(let text) = key { return handlePaste(text) }
        if case .mouse(let event) = key { return handleMouse(event) }
        if let overlay { return overlay.handle(key, app: self) }
        if let action = top.handle(key, app: self) { return action }
        guard let command = Keymap.command(for: key, in: top.keyContext) else { return .ignore }
        return run(command)
    }

    /// Runs a command as if its key had been pressed: the top screen's, or the app's own.
    package func run(_ command: KeyCommand) -> LoopAction {
        if let action = top.run(command, app: self) { return action }
        switch command {
        case .back:
            guard !pushed.isEmpty else { return .ignore }
            pop()
        case .diff:
            let marks = store.marks.sorted { $0.rawValue < $1.rawValue }
            let pair: [TaskID]
            if marks.count == 2 {
                pair = marks
            } else if marks.count == 1, let selected = selectedID, selected != marks[0] {
                pair = [marks[0], selected]
            } else {
                say("to diff, mark two tasks with m (or mark one and select another), then press d")
                return .redraw
            }
            push(DiffScreen(pair[0], pair[1]))
        case .copyMenu:
            guard selectedID != nil else { return .ignore }
            overlay = CopyMenu()
            say("copy: u URL  c curl  h httpie  q request head  r response head  b body  (Esc: nothing)")
        case .saveBody:
            guard let record = selectedID.flatMap(store.record) else { return .ignore }
            guard record.body != nil else {
                say("\(record.id) has no body to save")
                return .redraw
            }
            open(.bodyPath, text: BodyFileName.suggested(for: record))
        case .suspendResume:
            guard let id = selectedID else { return .ignore }
            say(actions.suspendOrResume(id))
        case .cancel:
            guard let id = selectedID else { return .ignore }
            say(actions.cancel(id))
        case .replay:
            guard let record = selectedID.flatMap(store.record) else { return .ignore }
            say(actions.replay(record))
        case .replayFailed:
            // The marked tasks when there are any, else every failed one.
            let marks = store.marks
            let chosen = store.ids { id, state, _ in marks.isEmpty ? state == .failed : marks.contains(id) }.compactMap(store.record)
            chosen.forEach { _ = actions.replay($0) }
            let what = marks.isEmpty ? "failed" : "marked"
            say(chosen.isEmpty ? "no \(what) tasks to replay"
                : "replaying \(chosen.count) \(what) task\(chosen.count == 1 ? "" : "s")" + (marks.isEmpty ? "" : " (U clears the marks)"))
        case .mark:
            guard let id = selectedID else { return .ignore }
            store.toggleMark(id)
            _ = top.run(.moveDown, app: self)
        case .clearMarks:
            let count = store.clearMarks()
            say(count == 0 ? "no marks to clear" : "cleared \(count) mark\(count == 1 ? "" : "s")")
        case .toggleLog: showLog.toggle()
        case .saveHAR: open(.harPath, text: "reqtop-session.har")
        case .exportCurl:
            guard let id = selectedID else { return .ignore }
            open(.curlPath, text: "reqtop-task-\(id.rawValue).sh")
        case .newRequest: open(.newRequestLine, text: "")
        case .editRequest:
            guard let record = selectedID.flatMap(store.record) else { return .ignore }
            say(actions.edit(record))
        case .help:
            if top is HelpScreen { pop() } else { push(HelpScreen()) }
        case .quit:
            // On help and diff, q goes back (as Esc); it quits from the table and the detail view.
            if top.quitGoesBack {
                pop()
                return .redraw
            }
            let running = actions.unfinishedCount + actions.queuedCount
            if running > 0 {
                open(.confirmQuit(running: running), text: "")
                return .redraw
            }
            return .quit
        default:
            return .ignore // another screen's command
        }
        return .redraw
    }

    /// Ctrl-C: closes an open prompt, menu or new request (and leaves reqtop running); otherwise quits.
    package func interrupt() -> LoopAction {
        if overlay != nil || top is ComposeScreen {
            overlay = nil
            if top is ComposeScreen { pop() }
            say("closed: nothing done (Ctrl-C again, or q, quits)")
            return .redraw
        }
        return .quit
    }

    /// A paste is text, never keys: it goes into the open prompt (a pasted request on the table
    /// opens the compose screen); anywhere else it is dropped, saying so.
    func handlePaste(_ text: String) -> LoopAction {
        if let prompt = overlay as? PromptOverlay {
            prompt.paste(text, app: self)
            return .redraw
        }
        overlay = nil // a menu waiting for a key
        if pushed.isEmpty, case .success(let parsed) = TypedRequest.parse(text), text.containsBytes("\n") || text.hasPrefix("curl") {
            push(ComposeScreen(request: parsed.request, note: parsed.note))
            return .redraw
        }
        say("pasted text ignored (\(text.count) characters): press n and paste a URL, a curl command or an .http request")
        return .redraw
    }

    // MARK: Drawing

    /// Draws the top screen into `frame`, and the bottom line (two lines for a message too long
    /// for one, when the terminal has room: a message is never cut where it can be read whole).
    package func render(_ frame: inout Frame, now: Double = Date().timeIntervalSince1970) {
        let area = frame.area
        guard area.width > 0, area.height > 0 else { return }
        if let notice = actions.takeNotice() { say(notice) }
        let right = overlay != nil ? "" : pushed.isEmpty ? "q quit  ? help " : "? help "
        let text = overlay == nil ? currentMessage(now: now) : nil
        let long = text.map { TextWidth.of(" " + $0) > area.width - TextWidth.of(right) } ?? false
        let bottom = long && area.height >= 8 ? 2 : 1
        let rows = Layout.vertical([.fill(1), .fixed(bottom)]).split(area)
        top.render(&frame, area: rows[0], app: self, now: now)
        if bottom == 2, let text {
            // The first line as wide as the screen, the rest beside the keys.
            let lines = TextWidth.wrap(" " + text, width: area.width)
            let first = Rect(x: rows[1].x, y: rows[1].y, width: rows[1].width, height: 1)
            let second = Rect(x: rows[1].x, y: rows[1].y + 1, width: rows[1].width, height: 1)
            frame.render(StatusLine(left: lines.first ?? "", right: ""), in: first)
            let rest = lines.dropFirst().map { $0.trimmingWhitespace() }.joined(separator: " ")
            frame.render(StatusLine(left: " " + rest, right: right), in: second)
            return
        }
        renderBottomLine(&frame, area: rows[1], right: right, message: text)
    }

    /// The message on the bottom line now (a fresh `say`, else the current activity), if any.
    private func currentMessage(now: Double) -> String? {
        if let message, now - message.time < 6 { return message.text }
        return actions.activity
    }

    private func renderBottomLine(_ frame: inout Frame, area: Rect, right: String, message text: String?) {
        guard area.height > 0 else { return }
        if let overlay, overlay.renderBottomLine(&frame, area: area) { return }
        // `q` and `?` stay on the right however narrow the terminal is (a menu takes the whole line).
        if let text {
            frame.render(StatusLine(left: " " + text, right: right), in: area)
            return
        }
        frame.render(StatusLine(left: " " + top.hints, right: right), in: area)
    }
}
