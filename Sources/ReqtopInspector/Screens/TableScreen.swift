import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// The live table of tasks, always at the bottom of the stack: the header with the counts, the
/// rows (filtered, sorted, followed), and the event log below (`l`).
final class TableScreen: InspectorScreen {
    var table = TableState(selected: 0)
    var filter = TaskFilter.all
    var order = TaskOrder.byID
    /// `F`: the selection stays on the newest task as tasks arrive.
    var follow = false
    /// What the table showed last frame, so keys act on the row the user sees.
    var listing = TaskListing.empty
    /// The task the selection is on: it stays on that task when rows move (sort, filter, new tasks).
    var anchor: TaskID?
    var pageSize = 10
    /// Where the rows (below the header) were drawn, for clicks.
    private var rowsArea = Rect(x: 0, y: 0, width: 0, height: 0)
    private let store: TaskStore

    init(store: TaskStore) { self.store = store }

    let keyContext = KeyContext.table
    var hints: String { Keymap.hintLine(for: .table) }
    var quitGoesBack: Bool { false }

    var selectedTask: TaskID? {
        guard let index = table.selected, index < listing.count else { return nil }
        return store.records(listing, rows: index..<index + 1).first?.id
    }

    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
        switch command {
        case .moveUp: move(by: -1, app: app)
        case .moveDown: move(by: 1, app: app)
        case .pageUp: move(by: -pageSize, app: app)
        case .pageDown: move(by: pageSize, app: app)
        case .top: move(by: -Int.max / 2, app: app)
        case .bottom: move(by: Int.max / 2, app: app)
        case .openDetail:
            guard let id = selectedTask else { return .ignore }
            app.push(DetailScreen(id: id))
        case .back:
            guard !filter.isEmpty else { return .ignore }
            filter = .all
            app.say("filter cleared")
        case .filter: app.open(.filter, text: filter.description)
        case .sort:
            app.overlay = SortMenu()
            app.say("sort: " + TaskSort.allCases.map { "\($0.menuKey) \($0.rawValue)" }.joined(separator: " "))
        case .reverseSort:
            order = order.reversed
            app.say("sorted by \(order)")
        case .follow:
            follow.toggle()
            app.say(follow ? "following the newest task (moving the selection stops it)" : "follow off")
        default: return nil
        }
        return .redraw
    }

    /// Applies a filter typed at the prompt; a bad one opens the prompt again, saying why.
    func applyFilter(_ text: String, app: InspectorApp) {
        do {
            filter = try TaskFilter(parsing: text)
            table.select(0, rowCount: 1)
            anchor = nil
            app.say(filter.isEmpty ? "filter cleared" : "filter: \(filter)")
        } catch {
            app.open(.filter, text: text, note: "not applied: \(error)")
        }
    }

    private func move(by delta: Int, app: InspectorApp) {
        if follow {
            follow = false
            app.say("follow off")
        }
        table.moveSelection(by: delta, rowCount: listing.count)
        anchor = selectedTask
    }

    func click(_ event: MouseEvent, app: InspectorApp) -> LoopAction {
        guard rowsArea.contains(x: event.x, y: event.y) else { return .ignore }
        let index = table.offset + (event.y - rowsArea.y)
        guard index < listing.count else { return .ignore }
        follow = false
        table.select(index, rowCount: listing.count)
        anchor = selectedTask
        return event.kind == .doubleClick ? app.run(.openDetail) : .redraw
    }

    // MARK: Drawing

    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        let logHeight = app.showLog ? min(10, max(3, area.height / 3)) : 0
        let parts = Layout.vertical([.fixed(2), .fill(1), .fixed(logHeight)]).split(area)
        listing = store.listing(filter: filter, order: order, now: now)
        renderHeader(&frame, area: parts[0], app: app, now: now)
        if follow, let newest = store.newestID { anchor = newest }
        if let anchor, let row = store.position(of: anchor, in: listing) { table.selected = row }
        if table.selected == nil, listing.count > 0 { table.selected = 0 }
        let layout = TaskTableLayout(width: parts[1].width, largestID: store.largestID, longestName: store.longestName,
                                     longestMethod: store.longestMethod, versionMarks: store.spokeNewerHTTP)
        let source = TaskTableSource(listing: listing, store: store, marks: store.marks, now: now, layout: layout)
        let widget = Table(columns: layout.tableColumns(order: order), source: source, headerStyle: Style().bold.reversed,
                           columnSpacing: TaskTableLayout.spacing)
        pageSize = max(1, widget.visibleRows(in: parts[1]) - 1)
        rowsArea = Rect(x: parts[1].x, y: parts[1].y + 1, width: parts[1].width, height: widget.visibleRows(in: parts[1]))
        frame.render(widget, in: parts[1], state: &table)
        if listing.count == 0 {
            let hint = filter.isEmpty ? "no tasks yet — press n to send a request" : "no task matches the filter (Esc clears it)"
            frame.buffer.setString(x: parts[1].x + 1, y: parts[1].y + 2, hint, style: Style().dim, maxWidth: parts[1].width - 1)
        }
        if app.showLog { renderLog(&frame, area: parts[2]) }
        anchor = selectedTask
    }

    private func renderHeader(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
        guard area.height > 0 else { return }
        let a = store.aggregates(now: now)
        // The modes that change what keys do come first on the right, so a narrow terminal keeps them.
        var modes: [String] = []
        if follow { modes.append("FOLLOW") }
        let marked = store.marks.count
        if marked > 0 { modes.append("\(TaskColumn.markGlyph) \(marked) marked") }
        let right = modes.joined(separator: "  ")
        let countsWidth = max(0, area.width - (right.isEmpty ? 0 : TextWidth.of(right) + 2))
        let counts = Self.headerLine(title: app.title, status: app.titleStatus?(), aggregates: a, width: countsWidth)
        frame.buffer.setString(x: area.x, y: area.y, TextWidth.truncate(counts, to: countsWidth), style: Style().bold, maxWidth: countsWidth)
        if !right.isEmpty {
            frame.buffer.setString(x: area.x + area.width - TextWidth.of(right) - 1, y: area.y, right, style: Style().bold.reversed,
                                   maxWidth: area.width)
        }
        guard area.height > 1 else { return }
        // What the table shows (count, order, filter) first: a narrow terminal cuts the figures, not the state.
        var figures = " shown \(listing.count)/\(a.total)"
        let queued = app.actions.queuedCount
        if queued > 0 { figures += " (+\(queued) queued)" }
        let notSent = app.actions.notSentCount
        if notSent > 0 { figures += " (\(notSent) not sent)" }
        figures += "  sort \(order)"
        if !filter.isEmpty { figures += "  filter \(filter)" }
        figures += String(printf: "   %.1f req/s  ", a.requestsPerSecond) + ByteCount.format(Int64(a.bytesPerSecond)) + "/s  "
        figures += "p50 \(a.p50.map(Milliseconds.format) ?? "–")  p95 \(a.p95.map(Milliseconds.format) ?? "–")  "
        figures += "max \(a.max.map(Milliseconds.format) ?? "–")"
        frame.buffer.setString(x: area.x, y: area.y + 1, figures, style: Style().dim, maxWidth: area.width)
    }

    /// The first header line in `width` columns: every state's count in full is what matters, so
    /// the title is cut first (its middle, then the status after it: an attached program's name),
    /// then the labels shorten (`susp`, `done`, `canc`), and only at last the counts themselves.
    static func headerLine(title: String, status: String? = nil, aggregates a: Aggregates, width: Int) -> String {
        let (r, s, c, f, x) = (a.count(.running), a.count(.suspended), a.count(.completed), a.count(.failed), a.count(.cancelled))
        let forms = ["\(r) running  \(s) suspended  \(c) completed  \(f) failed  \(x) cancelled",
                     "\(r) running \(s) susp \(c) done \(f) failed \(x) canc",
                     "\(r) run \(s) susp \(c) done \(f) fail \(x) canc"]
        let prefix = " reqtop · "
        for counts in forms {
            let room = width - TextWidth.of(prefix) - 3 - TextWidth.of(counts)
            let statusPart = status.map { " · " + $0 } ?? ""
            let whole = title + statusPart
            if room >= TextWidth.of(statusPart) + min(TextWidth.of(title), 8) {
                return prefix + Self.truncatingMiddle(title, to: room - TextWidth.of(statusPart)) + statusPart + "   " + counts
            }
            if room >= min(TextWidth.of(whole), 8) {
                return prefix + Self.truncatingMiddle(whole, to: room) + "   " + counts
            }
        }
        let counts = forms[2]
        return TextWidth.of(" " + counts) <= width ? " " + counts : TextWidth.truncate(" " + counts, to: width)
    }

    /// `text` in `width` columns, its middle left out (`session.http (ses…, read-only)`): a title's
    /// end says what it is as much as its start.
    static func truncatingMiddle(_ text: String, to width: Int) -> String {
        guard TextWidth.of(text) > width else { return text }
        guard width > 8 else { return TextWidth.truncate(text, to: width) }
        let tailWidth = min(width / 2, 14)
        var tail = ""
        for character in text.reversed() {
            guard TextWidth.of(String(character) + tail) <= tailWidth else { break }
            tail = String(character) + tail
        }
        return TextWidth.truncate(text, to: width - TextWidth.of(tail)) + tail
    }

    private func renderLog(_ frame: inout Frame, area: Rect) {
        guard area.height > 0 else { return }
        frame.buffer.setString(x: area.x, y: area.y, "─ events " + String(repeating: "─", count: max(0, area.width - 9)),
                               style: Style().dim, maxWidth: area.width)
        let lines = store.logLines(limit: area.height - 1)
        for (i, line) in lines.enumerated() {
            frame.buffer.setString(x: area.x, y: area.y + 1 + i, line, maxWidth: area.width)
        }
    }
}

/// `o`: the next key picks the sort column (its order starts in the column's natural direction).
final class SortMenu: InspectorOverlay {
    func handle(_ key: Key, app: InspectorApp) -> LoopAction {
        app.overlay = nil
        let table = app.tableScreen
        guard case .char(let c) = key, let sort = TaskSort.allCases.first(where: { $0.menuKey == c }) else {
            app.say("sort unchanged: \(table.order)")
            return .redraw
        }
        table.order = TaskOrder(sort)
        app.say("sorted by \(table.order) (O reverses)")
        return .redraw
    }

    func renderBottomLine(_ frame: inout Frame, area: Rect) -> Bool { false }
}
