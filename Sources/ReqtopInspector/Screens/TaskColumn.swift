import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks
import ReqtopTerminalUI

/// One column of the task table, declared once: header, widths, alignment, how a record becomes
/// its cell (given the cell's width), its colour, and the order it sorts by.
struct TaskColumn: Sendable {
    enum Name: Sendable { case id, state, method, name, hostPath, status, size, time, progress }

    let name: Name
    let header: String
    /// The width it takes when there is room; the flexible columns (path, name) take what is left.
    let width: Int
    /// A narrower form it shrinks to before it is dropped (nil: none).
    let compactWidth: Int?
    let alignment: ColumnAlignment
    let sort: TaskSort?
    let cell: @Sendable (_ record: TaskRecord, _ marked: Bool, _ now: Double, _ width: Int) -> String
    var style: (@Sendable (TaskRecord) -> Style)? = nil

    /// The mark glyph before a marked task's id.
    static let markGlyph = "●"

    static let id = TaskColumn(name: .id, header: "#", width: 6, compactWidth: 4, alignment: .right, sort: .id) { record, marked, _, _ in
        (marked ? markGlyph : "") + String(record.id.rawValue)
    }
    static let state = TaskColumn(name: .state, header: "STATE", width: 9, compactWidth: 5, alignment: .left, sort: nil,
                                  cell: { record, _, _, width in
                                      if record.isWaitingToStart { return width >= 9 ? "waiting" : "wait" }
                                      return width >= 9 ? record.state.rawValue : shortState(record.state)
                                  },
                                  style: { $0.isWaitingToStart ? Style().dim : stateStyle($0.state) })
    static let method = TaskColumn(name: .method, header: "METHOD", width: 6, compactWidth: 4, alignment: .left, sort: .method) { record, _, _, _ in
        record.method
    }
    static let name = TaskColumn(name: .name, header: "NAME", width: 8, compactWidth: nil, alignment: .left, sort: .name) { record, _, _, width in
        TextWidth.truncate(record.name ?? "", to: width)
    }
    static let hostPath = TaskColumn(name: .hostPath, header: "HOST / PATH", width: 12, compactWidth: nil, alignment: .left, sort: .path) { record, _, _, width in
        HostPath.fit(host: record.hostAndPort, path: record.pathAndQuery,
                     suffix: record.redirects.isEmpty ? "" : " ↪\(record.redirects.count)", width: width)
    }
    static let status = TaskColumn(name: .status, header: "STATUS", width: 6, compactWidth: nil, alignment: .right, sort: .status,
                                   cell: { record, _, _, _ in
                                       // `h2 200`: the version when newer than HTTP/1.1;
                                       // ✓ every test of its scripts passed, ✗ one failed or a script did (the Tests tab says which).
                                       let version = record.response.map { $0.majorVersion >= 2 ? "h\($0.majorVersion) " : "" } ?? ""
                                       return version + (record.status.map(String.init) ?? (record.state == .failed ? "ERR" : "–")) + testMark(record)
                                   },
                                   style: { testMark($0) == " ✗" ? Style().fg(.red).bold : statusStyle($0) })
    static let size = TaskColumn(name: .size, header: "SIZE", width: 9, compactWidth: nil, alignment: .right, sort: .size) { record, _, _, _ in
        record.downloaded > 0 || record.state == .completed ? ByteCount.format(record.downloaded) : "–"
    }
    static let time = TaskColumn(name: .time, header: "TIME", width: 8, compactWidth: nil, alignment: .right, sort: .duration) { record, _, now, _ in
        // A finished task shows its total (as the waterfall and HAR do); a running one, its age.
        // `‖` after it: the time includes time the task spent suspended (the Timing tab says how much).
        let total = record.state.isTerminal ? record.timings.flatMap { $0.total >= 0 ? $0.total : nil } : nil
        guard let text = total.map(Milliseconds.format) ?? record.duration(now: now).map({ Milliseconds.format($0 * 1000) }) else { return "–" }
        return record.pausedMilliseconds(now: now) > 0 ? text + pausedMark : text
    }
    /// After a TIME that includes time suspended.
    static let pausedMark = "‖"
    static let progress = TaskColumn(name: .progress, header: "PROGRESS", width: 16, compactWidth: 4, alignment: .left, sort: nil,
                                     cell: { record, _, _, width in progress(record, bar: width >= 16) },
                                     style: { stateStyle($0.state) })

    /// ` ✓` when the task's tests all passed, ` ✗` when one failed or a script of it failed, else nothing.
    static func testMark(_ record: TaskRecord) -> String {
        if record.tests.contains(where: { !$0.passed }) || record.scriptLogs.contains(where: { $0.level == .error }) { return " ✗" }
        return record.tests.isEmpty ? "" : " ✓"
    }

    /// Left to right, as wide as there is room for.
    static let all: [TaskColumn] = [id, state, method, name, hostPath, status, size, time, progress]

    private static func shortState(_ state: TaskState) -> String {
        switch state {
        case .suspended: "susp"
        case .running: "run"
        case .completed: "done"
        case .failed: "FAIL"
        case .cancelled: "canc"
        }
    }

    /// The STATE (and progress) cell's colour: running cyan, suspended yellow, failed red, cancelled dim.
    static func stateStyle(_ state: TaskState) -> Style {
        switch state {
        case .running: Style().fg(.cyan)
        case .suspended: Style().fg(.yellow)
        case .failed: Style().fg(.red).bold
        case .cancelled: Style().fg(.magenta).dim
        case .completed: .plain
        }
    }

    /// The STATUS cell's colour by class: 2xx green, 3xx cyan, 4xx orange (yellow with 8 colours), 5xx red.
    static func statusStyle(_ record: TaskRecord) -> Style {
        guard let status = record.status else { return record.state == .failed ? Style().fg(.red).bold : .plain }
        switch status {
        case 200..<300: return Style().fg(.green)
        case 300..<400: return Style().fg(.cyan)
        case 400..<500: return Style().fg(.indexed(214)) // orange; the nearest of 8 colours is yellow
        case 500...: return Style().fg(.red).bold
        default: return .plain
        }
    }

    private static func progress(_ record: TaskRecord, bar: Bool) -> String {
        // A streamed response counts its messages (server-sent events, NDJSON lines) instead.
        if let count = record.messages?.count, count > 0, !record.state.isTerminal || record.state == .completed {
            let noun = record.isWebSocket ? "message" : "event"
            guard bar else { return count < 100 ? "\(count)ev" : count < 10_000 ? String(count) : "\(count / 1000)k" } // 4 columns
            let number = count < 10_000 ? String(count) : "\(count / 1000)k"
            return (record.state.isTerminal ? "" : record.isWebSocket ? "⇅ " : "⇣ ") + "\(number) \(noun)\(count == 1 ? "" : "s")"
        }
        switch record.state {
        case .failed: return bar ? "✗ " + (record.error?.code.rawValue ?? "failed") : "✗"
        case .cancelled: return bar ? "⊘ cancelled" : "⊘"
        case .completed: return bar ? Gauge.bar(ratio: 1, width: 10) + " 100%" : "100%"
        case .running, .suspended:
            guard let fraction = record.progressFraction else {
                return bar ? (record.response == nil ? "waiting…" : "receiving…") : "…"
            }
            let percent = String(printf: "%3.0f%%", fraction * 100)
            return bar ? Gauge.bar(ratio: fraction, width: 10) + " " + percent : percent
        }
    }
}

/// Which columns the task table shows at a width, and how wide each is. Columns have priorities:
/// the host/path column is the last to shrink; before it does, the progress bar becomes a
/// percentage, the name column goes, STATE becomes a short word, the percentage goes, then TIME,
/// SIZE, a shorter METHOD, STATE and a shorter id — in that order, only as far as needed.
struct TaskTableLayout {
    var columns: [(column: TaskColumn, width: Int)]

    static let spacing = 1

    /// - Parameters:
    ///   - largestID: the largest task id, so the id column is as wide as its numbers (and a mark).
    ///   - longestName: the longest request name; 0 when no task has one (no NAME column).
    ///   - longestMethod: the longest method: METHOD widens to 7 for CONNECT and OPTIONS when a task has one.
    ///   - versionMarks: a response came over HTTP/2: STATUS widens to 9 for `h2 200 ✓`.
    init(width: Int, largestID: Int = 99_999, longestName: Int = 0, longestMethod: Int = 0, versionMarks: Bool = false) {
        enum Step { case compact(TaskColumn.Name), drop(TaskColumn.Name) }
        var widths: [TaskColumn.Name: Int] = [:]
        for column in TaskColumn.all where column.name != .name || longestName > 0 { widths[column.name] = column.width }
        widths[.id] = max(3, String(largestID).count + 1)
        if longestName > 0 { widths[.name] = min(24, max(TaskColumn.name.width, longestName)) }
        widths[.method] = min(7, max(TaskColumn.method.width, longestMethod))
        if versionMarks { widths[.status] = 9 }
        let pathMinimum = max(12, min(32, width * 2 / 5))
        func pathWidth() -> Int {
            let fixed = widths.filter { $0.key != .hostPath }.values.reduce(0, +)
            return width - fixed - (widths.count - 1) * Self.spacing
        }
        let steps: [Step] = [.compact(.progress), .drop(.name), .compact(.state), .drop(.progress), .drop(.time), .drop(.size),
                             .compact(.method), .drop(.state), .compact(.id)]
        for step in steps where pathWidth() < pathMinimum {
            switch step {
            case .compact(let name):
                if let current = widths[name], let compact = TaskColumn.all.first(where: { $0.name == name })?.compactWidth {
                    widths[name] = min(current, compact)
                }
            case .drop(let name): widths[name] = nil
            }
        }
        widths[.hostPath] = max(1, pathWidth())
        columns = TaskColumn.all.compactMap { column in widths[column.name].map { (column, $0) } }
    }
}

/// The HOST / PATH cell in a given width: whole when it fits; else the host is shortened in the
/// middle first, then the path in the middle, keeping its end (the part that tells requests apart).
enum HostPath {
    static func fit(host: String, path: String, suffix: String, width: Int) -> String {
        // Most rows fit: no bytes more than cells means no characters more than cells (no counting).
        if host.utf8.count + path.utf8.count + suffix.utf8.count <= width { return host + path + suffix }
        let whole = host + path + suffix
        guard whole.count > width else { return whole }
        guard width > 3 else { return String(whole.prefix(width)) }
        let hostRoom = width - path.count - suffix.count
        let hostMinimum = min(host.count, 5)
        if hostRoom >= hostMinimum { return middle(host, to: hostRoom) + path + suffix }
        let pathRoom = width - hostMinimum - suffix.count
        guard pathRoom >= 4 else { return middle(whole, to: width, keepingEnd: true) }
        return middle(host, to: hostMinimum) + middle(path, to: pathRoom, keepingEnd: true) + suffix
    }

    /// `text` cut to `width` characters with `…` in the middle; more of the end is kept when asked.
    static func middle(_ text: String, to width: Int, keepingEnd: Bool = false) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        let kept = width - 1
        let head = keepingEnd ? kept / 3 : (kept + 1) / 2
        return String(text.prefix(head)) + "…" + String(text.suffix(kept - head))
    }
}
