import FoundationEssentials
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

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
