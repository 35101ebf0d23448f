import Foundation
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// What the loop should do after a key.
/// The inspector's screens and their state, over a `TaskStore`. Confined to the UI thread:
/// background work only changes the store and asks the loop for a redraw.
package final class InspectorApp {
    enum Screen: Equatable {
        case main
        case detail(TaskID)
        case diff(TaskID, TaskID)
        case help
        /// A new request shown as it will be sent, waiting for Enter.
        case compose
    }

    /// How much of a running task's body the Body tab shows live (the manager keeps that much per running task).
    package static let liveBodyPreviewBytes = 256 << 10

    package let store: TaskStore
    let actions: InspectorActions
    /// Shown in the header: the list being replayed, or "interactive session".
    package var title: String
    /// Said after the title each frame (an attached program's connection), when set.
    package var titleStatus: (() -> String)?

    var screen = Screen.main
    var detailTab = DetailTab.request
    var table = TableState(selected: 0)
    var detailScroll = TextViewState()
    var helpScroll = TextViewState()
    var diffScroll = TextViewState()
    /// The diff on screen, rebuilt only when a task changes or the width does (it reads and compares bodies).
    var diffLines: (key: [Int], lines: [String])?
    var filter = TaskFilter.all
    var order = TaskOrder.byID
    /// `F`: the selection stays on the newest task as tasks arrive.
    var follow = false
    /// Where the table rows and detail tabs were drawn, for mouse clicks.
    var clickTargets = ClickTargets()
    /// The request the compose screen shows (`n`, or a pasted request).
    var composeDraft: ComposeDraft?
    var composeScroll = TextViewState()
    /// `o` was pressed: the next key picks the sort column.
    var sortMenuOpen = false
    var showLog = false
    var prompt: ActivePrompt?
    var promptHistory: [PromptKind: [String]] = [:]
    var message: (text: String, time: Double)?
    /// What the table showed last frame, so keys act on the row the user sees.
    var listing = TaskListing.empty
    /// The task the selection is on: it stays on that task when rows move (sort, filter, new tasks).
    var anchor: TaskID?
    var pageSize = 10
    var detailLines = DetailLinesCache()
    /// The detail view's search (`/`), kept across tabs; `n`/`N` step through its matching lines.
    var detailSearch: TextSearch?
    /// Which of the search's matching lines `n`/`N` went to last (an index into them).
    var detailMatch: Int?
    /// Soft wrap in the detail view (`z`).
    var detailWrap = true
    /// How the Body tab shows bodies (`v`).
    var bodyView = BodyView.auto
    /// The JSON view's folded objects and arrays (reset when the body shown changes).
    var jsonFolding = JSONFolding()
    /// `y` was pressed: the next key picks what to copy.
    var copyMenuOpen = false

    package init(store: TaskStore, actions: InspectorActions, title: String) {
        self.store = store
        self.actions = actions
        self.title = title
    }

    /// The selected task's id in the table.
    var selectedID: TaskID? {
        if case .detail(let id) = screen { return id }
        if case .diff = screen { return nil } // keys that act on one task do nothing here
        guard let index = table.selected, index < listing.count else { return nil }
        return store.records(listing, rows: index..<index + 1).first?.id
    }

    /// Shows `text` on the bottom line for a few seconds.
    package func say(_ text: String) { message = (text, Date().timeIntervalSince1970) }

    // MARK: Keys

    /// Handles one key press.
    package func handle(_ key: Key) -> LoopAction {
        if key == .resize { return .redraw }
        if case .paste(let text) = key { return handlePaste(text) }
        if case .mouse(let event) = key { return handleMouse(event) }
        if prompt != nil { return handlePromptKey(key) }
        if screen == .compose { return handleComposeKey(key) }
        if copyMenuOpen { return handleCopyKey(key) }
        if sortMenuOpen { return handleSortKey(key) }
        let context: KeyContext = switch screen {
        case .detail: .detail
        case .diff: .diff
        case .main, .help, .compose: .table
        }
        guard let command = Keymap.command(for: key, in: context) else { return .ignore }
        return run(command)
    }

    /// Runs a command as if its key had been pressed.
    package func run(_ command: KeyCommand) -> LoopAction {
        switch command {
        case .moveUp: move(by: -1)
        case .moveDown: move(by: 1)
        case .pageUp: move(by: -pageSize)
        case .pageDown: move(by: pageSize)
        case .top: move(by: -Int.max / 2)
        case .bottom: move(by: Int.max / 2)
        case .openDetail:
            guard let id = selectedID else { return .ignore }
            screen = .detail(id)
            detailTab = .request
            detailScroll = TextViewState()
            detailMatch = nil
        case .back:
            switch screen {
            case .main:
                if !filter.isEmpty {
                    filter = .all
                    say("filter cleared")
                } else { return .ignore }
            case .detail, .help, .diff, .compose: screen = .main
            }
        case .nextTab, .previousTab:
            let tabs = DetailTab.allCases
            let step = command == .nextTab ? 1 : tabs.count - 1
            detailTab = tabs[(tabs.firstIndex(of: detailTab)! + step) % tabs.count]
            detailScroll = TextViewState()
            detailMatch = nil
        case .tab1, .tab2, .tab3, .tab4, .tab5, .tab6:
            let number = [KeyCommand.tab1, .tab2, .tab3, .tab4, .tab5, .tab6].firstIndex(of: command)!
            guard number < DetailTab.allCases.count else { return .ignore }
            detailTab = DetailTab.allCases[number]
            detailScroll = TextViewState()
            detailMatch = nil
        case .search: open(.search, text: "") // the last pattern is one ↑ away
        case .nextMatch, .previousMatch: jumpToMatch(forward: command == .nextMatch, includingCurrent: false)
        case .cycleBodyView:
            bodyView = bodyView.next
            detailTab = .body
            say("body view: \(bodyView.rawValue)")
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
            screen = .diff(pair[0], pair[1])
            diffScroll = TextViewState()
        case .toggleFold:
            guard case .json(let lines) = detailLines.content else {
                say("folding works in the JSON view (v picks it)")
                return .redraw
            }
            say(jsonFolding.toggle(atOrBelow: detailScroll.offset, in: lines))
        case .copyMenu:
            guard selectedID != nil else { return .ignore }
            copyMenuOpen = true
            say("copy: u URL  c curl  h httpie  q request head  r response head  b body  (Esc: nothing)")
        case .saveBody:
            guard let record = selectedID.flatMap(store.record) else { return .ignore }
            guard record.body != nil else {
                say("\(record.id) has no body to save")
                return .redraw
            }
            open(.bodyPath, text: BodyFileName.suggested(for: record))
        case .toggleWrap:
            detailWrap.toggle()
            say(detailWrap ? "wrap on" : "wrap off: ← → scroll sideways")
        case .scrollLeft, .scrollRight:
            guard !detailWrap else {
                say("wrap is on: press z to turn it off and scroll sideways")
                return .redraw
            }
            detailScroll.column = max(0, detailScroll.column + (command == .scrollRight ? 8 : -8))
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
            let chosen = store.allRecords.filter { marks.isEmpty ? $0.state == .failed : marks.contains($0.id) }
            chosen.forEach { _ = actions.replay($0) }
            let what = marks.isEmpty ? "failed" : "marked"
            say(chosen.isEmpty ? "no \(what) tasks to replay"
                : "replaying \(chosen.count) \(what) task\(chosen.count == 1 ? "" : "s")" + (marks.isEmpty ? "" : " (U clears the marks)"))
        case .filter: open(.filter, text: filter.description)
        case .sort:
            sortMenuOpen = true
            say("sort: " + TaskSort.allCases.map { "\($0.menuKey) \($0.rawValue)" }.joined(separator: " "))
        case .reverseSort:
            order = order.reversed
            say("sorted by \(order)")
        case .follow:
            follow.toggle()
            say(follow ? "following the newest task (moving the selection stops it)" : "follow off")
        case .mark:
            guard let id = selectedID else { return .ignore }
            store.toggleMark(id)
            move(by: 1)
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
            screen = screen == .help ? .main : .help
            helpScroll = TextViewState()
        case .quit:
            // On help and diff, q goes back (as Esc); it quits from the table and the detail view.
            if screen == .help || { if case .diff = screen { return true } else { return false } }() {
                screen = .main
                return .redraw
            }
            let running = actions.unfinishedCount + actions.queuedCount
            if running > 0 {
                open(.confirmQuit(running: running), text: "")
                return .redraw
            }
            return .quit
        }
        return .redraw
    }

    /// Ctrl-C: closes an open prompt or menu (and leaves reqtop running); otherwise quits.
    package func interrupt() -> LoopAction {
        if prompt != nil || copyMenuOpen || sortMenuOpen || screen == .compose {
            prompt = nil
            copyMenuOpen = false
            sortMenuOpen = false
            if screen == .compose { composeDraft = nil; screen = .main }
            say("closed: nothing done (Ctrl-C again, or q, quits)")
            return .redraw
        }
        return .quit
    }

    /// A paste is text, never keys: it goes into the open prompt (a pasted request at the `n`
    /// prompt, or on the table, opens the compose screen); anywhere else it is dropped, saying so.
    func handlePaste(_ text: String) -> LoopAction {
        copyMenuOpen = false
        sortMenuOpen = false
        if var active = prompt {
            if active.kind == .newRequestLine {
                prompt = nil
                submitTypedRequest(active.state.text + text, keepingText: text)
                return .redraw
            }
            // One-line prompts take a multi-line paste as one line; the body keeps its line breaks.
            let inserted = active.kind == .newRequestBody ? text : text.replacingOccurrences(of: "\n", with: " ")
            for character in inserted { active.state.apply(.insert(character)) }
            prompt = active
            return .redraw
        }
        if screen == .main, case .success(let parsed) = TypedRequest.parse(text), text.contains("\n") || text.hasPrefix("curl") {
            compose(parsed.request, note: parsed.note)
            return .redraw
        }
        say("pasted text ignored (\(text.count) characters): press n and paste a URL, a curl command or an .http request")
        return .redraw
    }

    /// Scrolls the detail view to the next (or previous) line matching the search, and says which
    /// match it is ("match 3/17").
    func jumpToMatch(forward: Bool, includingCurrent: Bool) {
        guard let search = detailSearch else { return say("no search: press / to search this tab") }
        guard let lines = shownDetailLines else { return say("search works on text (this is a hex dump)") }
        let matches = search.matchingLines(lines)
        guard !matches.isEmpty else {
            detailMatch = nil
            return say("no match for \(search.pattern)")
        }
        // From the match `n`/`N` went to last, else from the first line on screen.
        let index: Int
        var wrapped = false
        if let last = detailMatch, !includingCurrent, last < matches.count {
            index = (last + (forward ? 1 : matches.count - 1)) % matches.count
            wrapped = forward ? index < last : index > last
        } else {
            let top = detailScroll.offset
            index = forward ? matches.firstIndex { $0 >= top } ?? 0 : matches.lastIndex { $0 <= top } ?? matches.count - 1
        }
        detailMatch = index
        detailScroll.offset = matches[index]
        say("match \(index + 1)/\(matches.count) for \(search.pattern)" + (wrapped ? " (wrapped)" : ""))
    }

    /// The key after `o`: a sort column (its order starts in the column's natural direction), or nothing.
    func handleSortKey(_ key: Key) -> LoopAction {
        sortMenuOpen = false
        guard case .char(let c) = key, let sort = TaskSort.allCases.first(where: { $0.menuKey == c }) else {
            say("sort unchanged: \(order)")
            return .redraw
        }
        order = TaskOrder(sort)
        say("sorted by \(order) (O reverses)")
        return .redraw
    }

    private func move(by delta: Int) {
        switch screen {
        case .main:
            if follow {
                follow = false
                say("follow off")
            }
            table.moveSelection(by: delta, rowCount: listing.count)
            anchor = selectedID
        case .detail: detailScroll.offset = max(0, detailScroll.offset + delta)
        case .diff: diffScroll.offset = max(0, diffScroll.offset + delta)
        case .help: helpScroll.offset = max(0, helpScroll.offset + delta)
        case .compose: composeScroll.offset = max(0, composeScroll.offset + delta)
        }
    }
}
