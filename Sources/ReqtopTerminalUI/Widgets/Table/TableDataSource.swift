/// One table row: its cell texts (untrusted text is fine, it is sanitized when drawn), a style,
/// and optionally a style per cell laid over the row's (a status coloured by its class).
public struct TableRow: Hashable, Sendable {
    public var cells: [String]
    public var style: Style
    public var cellStyles: [Style]

    public init(_ cells: [String], style: Style = .plain, cellStyles: [Style] = []) {
        self.cells = cells
        self.style = style
        self.cellStyles = cellStyles
    }
}

/// Rows of a table, asked for one at a time and only for the rows on screen.
public protocol TableDataSource {
    var rowCount: Int { get }
    func row(at index: Int) -> TableRow
}

/// A data source made of a row count and a closure.
public struct ClosureTableDataSource: TableDataSource {
    public let rowCount: Int
    private let rowAt: (Int) -> TableRow

    public init(rowCount: Int, row: @escaping (Int) -> TableRow) {
        self.rowCount = rowCount
        rowAt = row
    }

    public func row(at index: Int) -> TableRow { rowAt(index) }
}

/// A data source over an array of rows.
public struct ArrayTableDataSource: TableDataSource {
    public var rows: [TableRow]
    public init(_ rows: [TableRow]) { self.rows = rows }
    public var rowCount: Int { rows.count }
    public func row(at index: Int) -> TableRow { rows[index] }
}
