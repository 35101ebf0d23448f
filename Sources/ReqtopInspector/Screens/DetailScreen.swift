import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// The detail text of the task on screen, rebuilt only when the task or the tab changes.
struct DetailLinesCache {
    var key: (id: TaskID, tab: DetailTab, revision: Int, width: Int, view: BodyView)?
    var content = DetailContent.lines([])
}

/// What a detail tab shows: text lines, pretty JSON or indented HTML/XML lines (coloured), or a hex dump of bytes.
enum DetailContent {
    case lines([String])
    case json([String])
    case markup([String])
    case hex([UInt8], note: String?)

    /// The text lines (what search looks in), nil for a hex dump.
    var textLines: [String]? {
        switch self {
        case .lines(let lines), .json(let lines), .markup(let lines): lines
        case .hex: nil
        }
    }
}

/// One task in full, a tab at a time (`DetailTab.all`): search (`/`, `n`, `N`), wrap (`z`), the
/// body's view (`v`) and folding (`space` in the JSON view). Wrap and the body view are the app's
/// preferences, kept from one detail screen to the next; the search is kept across tabs.
final class DetailScreen: ScrollingScreen {
    let id: TaskID
    var tab = DetailTab.request
    var scroll = TextViewState()
    private var pageSize = 10
    private var lines = DetailLinesCache()
    /// The search (`/`), kept across tabs; `n`/`N` step through its matching lines.
    var search: TextSearch?
    /// Which of the search's matching lines `n`/`N` went to last (an index into them).
    private var match: Int?
    /// The JSON view's folded objects and arrays (reset when the body shown changes).
    private var folding = JSONFolding()
    /// Where the tab bar was drawn, for clicks.
    private var tabBar = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The Stream and Messages tabs' lines, made once per message.
    private let streamLines = StreamTabLines()
    /// A tail-following tab (Stream): the offset its last page had at the last frame. Scrolled above
    /// it, the view stays where it was put; at the bottom again, it follows new lines.
    private var followedTo: Int?

    init(id: TaskID) { self.id = id }

    let keyContext = KeyContext.detail
    var hints: String { Keymap.hintLine(for: .detail) }
    var selectedTask: TaskID? { id }
    var quitGoesBack: Bool { false }

    /// The lines as shown: the JSON view's folded containers collapsed; nil for a hex dump.
    var shownLines: [String]? {
        if case .json(let lines) = lines.content { return folding.shown(lines).lines }
        return lines.content.textLines
    }

    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
        if let scrolled = scrollCommand(command, page: pageSize) { return scrolled }
        switch command {
        case .nextTab, .previousTab:
            let tabs = DetailTab.allCases
            let step = command == .nextTab ? 1 : tabs.count - 1
            show((tabs.firstIndex(of: tab).map { tabs[($0 + step) % tabs.count] }) ?? .request)
        case .tab1, .tab2, .tab3, .tab4, .tab5, .tab6, .tab7, .tab8, .tab9:
            let number = [KeyCommand.tab1, .tab2, .tab3, .tab4, .tab5, .tab6, .tab7, .tab8, .tab9].firstIndex(of: command) ?? 0
            guard number < DetailTab.allCases.count else { return .ignore }
            show(DetailTab.allCases[number])
        case .search: app.open(.search, text: "") // the last pattern is one ↑ away
        case .nextMatch, .previousMatch: jumpToMatch(forward: command == .nextMatch, includingCurrent: false, app: app)
        case .cycleBodyView:
            app.bodyView = app.bodyView.next
            tab = .body
            app.say("body view: \(app.bodyView.rawValue)")
        case .toggleFold:
            guard case .json(let lines) = lines.content else {
                app.say("folding works in the JSON view (v picks it)")
                return .redraw
            }
            app.say(folding.toggle(atOrBelow: scroll.offset, in: lines))
        case .toggleWrap:
            app.detailWrap.toggle()
            app.say(app.detailWrap ? "wrap on" : "wrap off: ← → scroll sideways")
        case .scrollLeft, .scrollRight:
            guard !app.detailWrap else {
                app.say("wrap is on: press z to turn it off and scroll sideways")
                return .redraw
            }
            scroll.column = max(0, scroll.column + (command == .scrollRight ? 8 : -8))
        default: return nil
        }
        return .redraw
    }

    private func show(_ newTab: DetailTab) {
        tab = newTab
        scroll = TextViewState()
        match = nil
        followedTo = newTab.content.followsTheTail ? 0 : nil // a tab whose lines grow at the end opens on them
    }

    /// Searches for `pattern` (empty: clears the search) and goes to the first match on or below the top line.
    func find(_ pattern: String, app: InspectorApp) {
        guard !pattern.isEmpty else {
            search = nil
            return app.say("search cleared")
        }
        search = TextSearch(pattern)
        match = nil
        jumpToMatch(forward: true, includingCurrent: true, app: app)
    }

    /// Scrolls to the next (or previous) line matching the search, and says which match it is ("match 3/17").
    func jumpToMatch(forward: Bool, includingCurrent: Bool, app: InspectorApp) {
        guard let search else { return app.say("no search: press / to search this tab") }
        guard let lines = shownLines else { return app.say("search works on text (this is a hex dump)") }
        let matches = search.matchingLines(lines)
        guard !matches.isEmpty else {
            match = nil
            return app.say("no match for \(search.pattern)")
        }
        // From the match `n`/`N` went to last, else from the first line on screen.
        let index: Int
        var wrapped = false
        if let last = match, !includingCurrent, last < matches.count {
            index = (last + (forward ? 1 : matches.count - 1)) % matches.count
            wrapped = forward ? index < last : index > last
        } else {
            let top = scroll.offset
            index = forward ? matches.firstIndex { $0 >= top } ?? 0 : matches.lastIndex { $0 <= top } ?? matches.count - 1
        }
        match = index
        scroll.offset = matches[index]
        app.say("match \(index + 1)/\(matches.count) for \(search.pattern)" + (wrapped ? " (wrapped)" : ""))
    }

    func click(_ event: MouseEvent, app: InspectorApp) -> LoopAction {
        guard tabBar.contains(x: event.x, y: event.y) else { return .ignore }
        let tabs = DetailTab.allCases
        guard let index = Tabs(tabs.map(\.title), selected: 0).tab(atColumn: event.x, from: tabBar.x, width: tabBar.width) else { return .ignore }
        show(tabs[index])
        return .redraw
    }

    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        guard let record = app.store.record(id) else {
            frame.buffer.setString(x: area.x, y: area.y, "task \(id) is gone", maxWidth: area.width)
            return
        }
        let parts = Layout.vertical([.fixed(1), .fixed(1), .fill(1)]).split(area)
        let status = record.response.map { " \($0.status) \($0.reason)" } ?? ""
        let title = " \(record.id) \(record.method) \(record.url.absoluteString) — \(record.state.rawValue)\(status)"
        // A long URL ends in … (never cut silently); the Request tab (1) shows it whole.
        frame.buffer.setString(x: parts[0].x, y: parts[0].y, TextWidth.truncate(Sanitizer.singleLine(title), to: parts[0].width),
                               style: TaskColumn.stateStyle(record.state).bold, maxWidth: parts[0].width)
        let tabs = DetailTab.allCases
        frame.render(Tabs(tabs.map(\.title), selected: tabs.firstIndex(of: tab) ?? 0), in: parts[1])
        tabBar = parts[1]

        let body = parts[2].inset(horizontal: 1)
        pageSize = max(1, body.height - 1)
        let view = app.bodyView
        // At the top of a stream's messages, those the task let go of are read back from the journal.
        var linesBefore: Int?
        if tab.content.followsTheTail, scroll.offset == 0, followedTo != nil, streamLines.canReadBack(record) {
            linesBefore = lines.content.textLines?.count
            _ = streamLines.readBack(record) { [app] first, last in app.actions.earlierMessages(of: id, from: first, through: last) }
            lines.key = nil
        }
        if lines.key.map({ $0.id != id || $0.tab != tab || $0.revision != record.revision || $0.width != body.width || $0.view != view })
            ?? true || (tab.content.followsTheClock && !record.state.isTerminal) { // live timings move with the clock
            if lines.key.map({ $0.id != id || $0.tab != tab || $0.view != view }) ?? true { folding = JSONFolding() }
            lines.key = (id, tab, record.revision, body.width, view)
            // A running task's body so far (progress events bump the revision, so it refreshes as bytes arrive).
            let live = tab.content.showsTheLiveBody && !record.state.isTerminal ? app.actions.bodySoFar(id) : nil
            let peers = tab == .timing ? record.connection.map { app.store.tasks(on: $0) } ?? [] : []
            lines.content = .lines([]) // (the last lines let go first: a stream's list then grows in place)
            lines.content = tab.content.content(of: record, in: DetailTabContext(width: body.width, view: view, now: now, liveBody: live,
                                                                                  connectionPeers: peers, streamLines: streamLines))
        }
        if let linesBefore, let after = lines.content.textLines?.count, after > linesBefore {
            scroll.offset += after - linesBefore // the same messages stay in view, the earlier ones above them
        }
        switch lines.content {
        case .lines, .json, .markup:
            var text = TextView(lines: shownLines ?? [], wrap: app.detailWrap)
            text.highlight = search
            if case .json = lines.content { text.colorize = JSONSyntax.spans }
            if case .markup = lines.content { text.colorize = MarkupSyntax.spans }
            let following = tab.content.followsTheTail && scroll.offset >= (followedTo ?? .max)
            if following { scroll.offset = .max } // the view clamps it to the last page
            frame.render(text, in: body, state: &scroll)
            if tab.content.followsTheTail, following || scroll.offset >= (followedTo ?? .max) { followedTo = scroll.offset }
        case .hex(let bytes, let note):
            let rows = Layout.vertical([.fixed(note == nil ? 0 : 1), .fill(1)]).split(body)
            if let note { frame.buffer.setString(x: rows[0].x, y: rows[0].y, note, style: Style().dim, maxWidth: rows[0].width) }
            frame.render(TextView(hexDump: bytes), in: rows[1], state: &scroll)
        }
    }
}
