/// Selection and scroll position of a `Table`, kept by the screen between frames.
public struct TableState: Hashable, Sendable {
    /// The selected row index, or `nil` for none.
    public var selected: Int?
    /// The first row shown.
    public var offset: Int

    public init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Selects `index` clamped to `0..<rowCount` (none when the table is empty).
    public mutating func select(_ index: Int, rowCount: Int) {
        selected = rowCount > 0 ? min(max(0, index), rowCount - 1) : nil
    }

    /// Moves the selection by `delta` rows (starting at the top when nothing is selected).
    public mutating func moveSelection(by delta: Int, rowCount: Int) {
        select((selected ?? (delta > 0 ? -1 : 0)) + delta, rowCount: rowCount)
    }

    /// Adjusts `offset` so the selection lies within `visibleRows` rows and the view does not run past the end.
    public mutating func scrollToSelection(visibleRows: Int, rowCount: Int) {
        guard visibleRows > 0 else { return }
        if let selected = selected, selected >= rowCount { self.selected = rowCount > 0 ? rowCount - 1 : nil }
        if let selected = selected {
            if selected < offset { offset = selected }
            if selected >= offset + visibleRows { offset = selected - visibleRows + 1 }
        }
        offset = max(0, min(offset, rowCount - visibleRows))
    }
}
