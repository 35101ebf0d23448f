import Foundation
import ReqtopNetworking
import ReqtopSession
import ReqtopTerminalUI

/// One column of the task table, declared once: its header, width, alignment, how a record
/// becomes its cell, and the order it sorts by (the header of the sorted column is marked).
struct TaskColumn: Sendable {
    let header: String
    let width: ColumnWidth
    let alignment: ColumnAlignment
    /// The sort order this column stands for, if any (`o` cycles through `TaskSort`).
    let sort: TaskSort?
    let cell: @Sendable (TaskRecord, _ marked: Bool, _ now: Double) -> String

    /// The table's columns, left to right.
    static let all: [TaskColumn] = [
        TaskColumn(header: "#", width: .fixed(6), alignment: .right, sort: .id) { record, marked, _ in
            (marked ? "*" : "") + String(record.id.rawValue)
        },
        TaskColumn(header: "STATE", width: .fixed(9), alignment: .left, sort: nil) { record, _, _ in record.state.rawValue },
        TaskColumn(header: "METHOD", width: .fixed(7), alignment: .left, sort: nil) { record, _, _ in record.method },
        TaskColumn(header: "HOST / PATH", width: .flex(1), alignment: .left, sort: nil) { record, _, _ in
            record.hostAndPort + record.pathAndQuery + (record.redirects.isEmpty ? "" : " ↪\(record.redirects.count)")
        },
        TaskColumn(header: "STATUS", width: .fixed(6), alignment: .right, sort: .status) { record, _, _ in
            record.status.map(String.init) ?? (record.state == .failed ? "ERR" : "–")
        },
        TaskColumn(header: "SIZE", width: .fixed(9), alignment: .right, sort: .size) { record, _, _ in
            record.downloaded > 0 || record.state == .completed ? ByteCount.format(record.downloaded) : "–"
        },
        TaskColumn(header: "TIME", width: .fixed(8), alignment: .right, sort: .duration) { record, _, now in
            // A finished task shows its total (as the waterfall and HAR do); a running one, its age.
            let total = record.state.isTerminal ? record.timings.flatMap { $0.total >= 0 ? $0.total : nil } : nil
            return total.map(Milliseconds.format) ?? record.duration(now: now).map { Milliseconds.format($0 * 1000) } ?? "–"
        },
        TaskColumn(header: "PROGRESS", width: .fixed(16), alignment: .left, sort: nil) { record, _, _ in progress(record) },
    ]

    /// The table widget's columns, the one sorted by `sort` marked with ▼ (id order is unmarked).
    static func tableColumns(sortedBy sort: TaskSort) -> [TableColumn] {
        all.map { column in
            let marked = sort != .id && column.sort == sort
            return TableColumn(column.header + (marked ? " ▼" : ""), width: column.width, alignment: column.alignment)
        }
    }

    private static func progress(_ record: TaskRecord) -> String {
        switch record.state {
        case .failed: return "✗ " + (record.error?.code.rawValue ?? "failed")
        case .cancelled: return "⊘ cancelled"
        case .completed: return Gauge.bar(ratio: 1, width: 10) + " 100%"
        case .running, .suspended:
            guard let fraction = record.progressFraction else {
                return record.response == nil ? "waiting…" : "receiving…"
            }
            return Gauge.bar(ratio: fraction, width: 10) + String(format: " %3.0f%%", fraction * 100)
        }
    }
}
