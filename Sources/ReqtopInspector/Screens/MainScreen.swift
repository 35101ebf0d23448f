import Foundation
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

extension InspectorApp {
    /// Draws the current screen into `frame`.
    package func render(_ frame: inout Frame, now: Double = Date().timeIntervalSince1970) {
        let area = frame.area
        guard area.width > 0, area.height > 0 else { return }
        let rows = Layout.vertical([.fill(1), .fixed(1)]).split(area)
        switch screen {
        case .main: renderMain(&frame, area: rows[0], now: now)
        case .detail(let id): renderDetail(&frame, area: rows[0], id: id, now: now)
        case .help: renderHelp(&frame, area: rows[0])
        case .diff(let a, let b): renderDiff(&frame, area: rows[0], a: a, b: b)
        case .compose: renderCompose(&frame, area: rows[0])
        }
        renderBottomLine(&frame, area: rows[1], now: now)
    }

    private func renderMain(_ frame: inout Frame, area: Rect, now: Double) {
        let logHeight = showLog ? min(10, max(3, area.height / 3)) : 0
        let parts = Layout.vertical([.fixed(2), .fill(1), .fixed(logHeight)]).split(area)
        listing = store.listing(filter: filter, order: order, now: now)
        renderHeader(&frame, area: parts[0], now: now)
        if follow, let newest = store.newestID { anchor = newest }
        if let anchor, let row = store.position(of: anchor, in: listing) { table.selected = row }
        if table.selected == nil, listing.count > 0 { table.selected = 0 }
        let longestName = store.longestName
        let layout = TaskTableLayout(width: parts[1].width, largestID: store.largestID, longestName: longestName)
        let source = TaskTableSource(listing: listing, store: store, marks: store.marks, now: now, layout: layout)
        let widget = Table(columns: layout.tableColumns(order: order), source: source, headerStyle: Style().bold.reversed,
                           columnSpacing: TaskTableLayout.spacing)
        pageSize = max(1, widget.visibleRows(in: parts[1]) - 1)
        clickTargets.tableRows = Rect(x: parts[1].x, y: parts[1].y + 1, width: parts[1].width, height: widget.visibleRows(in: parts[1]))
        frame.render(widget, in: parts[1], state: &table)
        if listing.count == 0 {
            let hint = filter.isEmpty ? "no tasks yet — press n to send a request" : "no task matches the filter (Esc clears it)"
            frame.buffer.setString(x: parts[1].x + 1, y: parts[1].y + 2, hint, style: Style().dim, maxWidth: parts[1].width - 1)
        }
        if showLog { renderLog(&frame, area: parts[2]) }
        anchor = selectedID
    }

    private func renderHeader(_ frame: inout Frame, area: Rect, now: Double) {
        guard area.height > 0 else { return }
        let a = store.aggregates(now: now)
        var counts = " reqtop · \(title)" + (titleStatus.map { " · \($0())" } ?? "") + "   "
        counts += "\(a.count(.running)) running  \(a.count(.suspended)) suspended  \(a.count(.completed)) completed  "
        counts += "\(a.count(.failed)) failed  \(a.count(.cancelled)) cancelled"
        // The modes that change what keys do come first on the right, so a narrow terminal keeps them.
        var modes: [String] = []
        if follow { modes.append("FOLLOW") }
        let marked = store.marks.count
        if marked > 0 { modes.append("\(TaskColumn.markGlyph) \(marked) marked") }
        let right = modes.joined(separator: "  ")
        let countsWidth = max(0, area.width - (right.isEmpty ? 0 : TextWidth.of(right) + 2))
        frame.buffer.setString(x: area.x, y: area.y, TextWidth.truncate(counts, to: countsWidth), style: Style().bold, maxWidth: countsWidth)
        if !right.isEmpty {
            frame.buffer.setString(x: area.x + area.width - TextWidth.of(right) - 1, y: area.y, right, style: Style().bold.reversed,
                                   maxWidth: area.width)
        }
        guard area.height > 1 else { return }
        // What the table shows (count, order, filter) first: a narrow terminal cuts the figures, not the state.
        var figures = " shown \(listing.count)/\(a.total)"
        let queued = actions.queuedCount
        if queued > 0 { figures += " (+\(queued) queued)" }
        let notSent = actions.notSentCount
        if notSent > 0 { figures += " (\(notSent) not sent)" }
        figures += "  sort \(order)"
        if !filter.isEmpty { figures += "  filter \(filter)" }
        figures += String(format: "   %.1f req/s  %@/s  ", a.requestsPerSecond, ByteCount.format(Int64(a.bytesPerSecond)))
        figures += "p50 \(a.p50.map(Milliseconds.format) ?? "–")  p95 \(a.p95.map(Milliseconds.format) ?? "–")  "
        figures += "max \(a.max.map(Milliseconds.format) ?? "–")"
        frame.buffer.setString(x: area.x, y: area.y + 1, figures, style: Style().dim, maxWidth: area.width)
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

    private func renderBottomLine(_ frame: inout Frame, area: Rect, now: Double) {
        guard area.height > 0 else { return }
        if let active = prompt {
            let widget = Prompt(label: active.label, style: Style().reversed)
            var state = active.state
            frame.buffer.setStyle(area, Style().reversed)
            frame.render(widget, in: area, state: &state)
            let cursor = widget.cursorPosition(area: area, state: state)
            frame.setCursor(x: cursor.x, y: cursor.y)
            return
        }
        // `q` and `?` stay on the right however narrow the terminal is (a menu takes the whole line).
        let right = copyMenuOpen || sortMenuOpen ? "" : screen == .main ? "q quit  ? help " : "? help "
        if let notice = actions.takeNotice() { say(notice) }
        if let message, now - message.time < 6 {
            frame.render(StatusLine(left: " " + message.text, right: right), in: area)
            return
        }
        if let activity = actions.activity {
            frame.render(StatusLine(left: " " + activity, right: right), in: area)
            return
        }
        frame.render(StatusLine(left: " " + hints(), right: right), in: area)
    }

    /// The key hint line, from the keymap.
    func hints() -> String {
        switch screen {
        case .main: Keymap.hintLine(for: .table)
        case .detail: Keymap.hintLine(for: .detail)
        case .help, .diff: Keymap.hintLine(for: .help)
        case .compose: "Enter send  Esc drop  ↑↓ scroll"
        }
    }

    private func renderDiff(_ frame: inout Frame, area: Rect, a: TaskID, b: TaskID) {
        guard let left = store.record(a), let right = store.record(b) else {
            frame.buffer.setString(x: area.x, y: area.y, "a task of the diff is gone", maxWidth: area.width)
            return
        }
        let parts = Layout.vertical([.fixed(1), .fill(1)]).split(area)
        frame.buffer.setString(x: parts[0].x, y: parts[0].y, " diff \(a) ⟷ \(b)   = same  ~ changed  - only in A  + only in B",
                               style: Style().bold, maxWidth: parts[0].width)
        let key = [a.rawValue, b.rawValue, left.revision, right.revision, parts[1].width]
        if diffLines?.key != key { diffLines = (key, TaskDiff.lines(left, right, width: parts[1].width - 2)) }
        frame.render(TextView(lines: diffLines?.lines ?? []), in: parts[1].inset(horizontal: 1), state: &diffScroll)
    }

    private func renderHelp(_ frame: inout Frame, area: Rect) {
        let lines = ["reqtop keys", ""] + Keymap.helpLines() + [
            "Filters combine with spaces (AND); ! negates a term:",
            "  api status:5xx !method:GET      state:failed      host:example name:login",
        ]
        frame.render(TextView(lines: lines, wrap: true), in: area.inset(horizontal: 1), state: &helpScroll) // long help wraps at 80 columns
    }
}

/// The task table's rows, asked for only while visible; the cells come from the layout's columns.
struct TaskTableSource: TableDataSource {
    let listing: TaskListing
    let store: TaskStore
    /// Read once per frame, not once per row.
    let marks: Set<TaskID>
    let now: Double
    let layout: TaskTableLayout

    var rowCount: Int { listing.count }

    @_optimize(none) // works around a Swift 6.3.1 -O crash (CopyPropagation "Found outside of lifetime use") in release builds
    func row(at index: Int) -> TableRow {
        guard let record = store.records(listing, rows: index..<index + 1).first else { return TableRow([]) }
        return Self.row(of: record, marked: marks.contains(record.id), now: now, layout: layout)
    }

    /// The row's cells and styles: apart from `row(at:)`, so this part is optimized.
    static func row(of record: TaskRecord, marked: Bool, now: Double, layout: TaskTableLayout) -> TableRow {
        var cells: [String] = [], styles: [Style] = []
        cells.reserveCapacity(layout.columns.count)
        styles.reserveCapacity(layout.columns.count)
        for (column, width) in layout.columns {
            cells.append(column.cell(record, marked, now, width))
            styles.append(column.style?(record) ?? .plain)
        }
        return TableRow(cells, style: record.state == .cancelled ? Style().dim : .plain, cellStyles: styles)
    }
}

extension TaskTableLayout {
    /// The table widget's columns; the sorted one's header carries ▲ or ▼ (plain id order has none).
    func tableColumns(order: TaskOrder) -> [TableColumn] {
        columns.map { column, width in
            let sorted = column.sort == order.key || (column.name == .hostPath && order.key == .host)
            let arrow = order != .byID && sorted ? (order.descending ? " ▼" : " ▲") : ""
            var header = column.name == .progress && width < column.width ? "PROG" : column.header
            // The arrow is never cut off: the title gives way (`STAT ▼`).
            if !arrow.isEmpty, TextWidth.of(header + arrow) > width { header = String(header.prefix(max(1, width - 2))) }
            return TableColumn(header + arrow, width: .fixed(width), alignment: column.alignment)
        }
    }
}
