/// One cell to draw at a position.
public struct CellChange: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cell: Cell

    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

/// The cells that differ between two frames of the same size.
public enum BufferDiff {
    /// Changes that turn `previous` into `next`, in row-major order.
    ///
    /// Continuation cells are never emitted: drawing a wide grapheme covers them.
    /// When the sizes differ, every cell of `next` is emitted.
    public static func changes(from previous: Buffer, to next: Buffer) -> [CellChange] {
        let full = previous.width != next.width || previous.height != next.height
        var changes: [CellChange] = []
        let width = next.width
        next.cells.withUnsafeBufferPointer { nextCells in
            previous.cells.withUnsafeBufferPointer { prevCells in
                for i in 0..<nextCells.count {
                    let cell = nextCells[i]
                    if cell.isContinuation { continue }
                    if full || cell != prevCells[i] {
                        changes.append(CellChange(x: i % width, y: i / width, cell: cell))
                    }
                }
            }
        }
        return changes
    }
}
