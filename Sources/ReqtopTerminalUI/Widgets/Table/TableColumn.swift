/// How wide a table column is.
public enum ColumnWidth: Hashable, Sendable {
    /// Exactly `n` columns.
    case fixed(Int)
    /// A share of the width the fixed columns leave, proportional to `weight`.
    case flex(Int)
}

/// Text alignment inside a column.
public enum ColumnAlignment: Hashable, Sendable { case left, right }

/// A table column: header title, width rule and alignment.
public struct TableColumn: Hashable, Sendable {
    public var title: String
    public var width: ColumnWidth
    public var alignment: ColumnAlignment

    public init(_ title: String, width: ColumnWidth, alignment: ColumnAlignment = .left) {
        self.title = title
        self.width = width
        self.alignment = alignment
    }

    /// Widths of `columns` in `total` cells with `spacing` between them.
    public static func widths(_ columns: [TableColumn], total: Int, spacing: Int) -> [Int] {
        let constraints: [Constraint] = columns.map {
            switch $0.width {
            case .fixed(let n): return .fixed(n)
            case .flex(let w): return .fill(w)
            }
        }
        return Layout.lengths(total: total, constraints, spacing: spacing)
    }
}
