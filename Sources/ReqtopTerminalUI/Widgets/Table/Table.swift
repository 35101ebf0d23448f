/// A virtualized table: only the rows that fit in its area are asked of the data source.
public struct Table: StatefulWidget {
    public var columns: [TableColumn]
    public var source: any TableDataSource
    public var showsHeader: Bool
    public var headerStyle: Style
    public var highlightStyle: Style
    /// Cells between columns.
    public var columnSpacing: Int

    public init(
        columns: [TableColumn],
        source: any TableDataSource,
        showsHeader: Bool = true,
        headerStyle: Style = Style().bold.underlined,
        highlightStyle: Style = Style().reversed,
        columnSpacing: Int = 1
    ) {
        self.columns = columns
        self.source = source
        self.showsHeader = showsHeader
        self.headerStyle = headerStyle
        self.highlightStyle = highlightStyle
        self.columnSpacing = columnSpacing
    }

    /// Rows of data that fit in `area` below the header.
    public func visibleRows(in area: Rect) -> Int { max(0, area.height - (showsHeader ? 1 : 0)) }

    public func render(area: Rect, buffer: inout Buffer, state: inout TableState) {
        guard !area.isEmpty else { return }
        let widths = TableColumn.widths(columns, total: area.width, spacing: columnSpacing)
        var y = area.y
        if showsHeader {
            drawRow(columns.map(\.title), widths: widths, y: y, x: area.x, style: headerStyle, buffer: &buffer)
            buffer.setStyle(Rect(x: area.x, y: y, width: area.width, height: 1), headerStyle)
            y += 1
        }
        let visible = visibleRows(in: area)
        let count = source.rowCount
        state.scrollToSelection(visibleRows: visible, rowCount: count)
        let end = min(count, state.offset + visible)
        guard state.offset < end else { return }
        for index in state.offset..<end {
            let row = source.row(at: index)
            let selected = state.selected == index
            let style = selected ? row.style.patched(with: highlightStyle) : row.style
            if selected || row.style != .plain { buffer.setStyle(Rect(x: area.x, y: y, width: area.width, height: 1), style) }
            drawRow(row.cells, widths: widths, y: y, x: area.x, style: style, buffer: &buffer)
            paintCells(row.cellStyles, widths: widths, y: y, x: area.x, selected: selected, buffer: &buffer)
            y += 1
        }
    }

    /// Lays each cell's own style over it (under the selection's highlight).
    private func paintCells(_ styles: [Style], widths: [Int], y: Int, x: Int, selected: Bool, buffer: inout Buffer) {
        var column = x
        for (i, width) in widths.enumerated() {
            if i < styles.count, styles[i] != .plain, width > 0 {
                let style = selected ? styles[i].patched(with: highlightStyle) : styles[i]
                buffer.setStyle(Rect(x: column, y: y, width: width, height: 1), style)
            }
            column += width + columnSpacing
        }
    }

    private func drawRow(_ cells: [String], widths: [Int], y: Int, x: Int, style: Style, buffer: inout Buffer) {
        var column = x
        for (i, width) in widths.enumerated() {
            if i < cells.count, width > 0 {
                buffer.setPadded(x: column, y: y, cells[i], width: width, alignRight: columns[i].alignment == .right, style: style)
            }
            column += width + columnSpacing
        }
    }
}
