/// A rectangle of terminal cells; `x`/`y` are the top-left column and row.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }
    /// One past the last column.
    public var right: Int { x + width }
    /// One past the last row.
    public var bottom: Int { y + height }
    public var area: Int { width * height }

    /// Whether the cell at column `x`, row `y` lies inside.
    public func contains(x: Int, y: Int) -> Bool { x >= self.x && x < right && y >= self.y && y < bottom }

    /// The part of this rectangle that lies inside `other`.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(right, other.right), y1 = min(bottom, other.bottom)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// This rectangle shrunk by `horizontal` columns on each side and `vertical` rows top and bottom.
    public func inset(horizontal: Int = 0, vertical: Int = 0) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// The single-row rectangle at row `index` (relative to `y`).
    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: index < height ? 1 : 0) }
}
