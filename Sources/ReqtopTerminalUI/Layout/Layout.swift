/// How much of a split one part takes.
public enum Constraint: Hashable, Sendable {
    /// Exactly `n` cells (less if the area runs out).
    case fixed(Int)
    /// `p` percent of the whole length, rounded down.
    case percentage(Int)
    /// A share of what fixed and percentage parts leave, proportional to the weight.
    case fill(Int)
}

/// The axis a layout splits along.
public enum Direction: Hashable, Sendable {
    /// Parts stacked top to bottom.
    case vertical
    /// Parts side by side, left to right.
    case horizontal
}

/// Splits a rectangle into parts along one axis.
public struct Layout: Hashable, Sendable {
    public var direction: Direction
    public var constraints: [Constraint]
    /// Cells left empty between neighbouring parts.
    public var spacing: Int

    public init(_ direction: Direction, _ constraints: [Constraint], spacing: Int = 0) {
        self.direction = direction
        self.constraints = constraints
        self.spacing = spacing
    }

    public static func vertical(_ constraints: [Constraint], spacing: Int = 0) -> Layout { Layout(.vertical, constraints, spacing: spacing) }
    public static func horizontal(_ constraints: [Constraint], spacing: Int = 0) -> Layout { Layout(.horizontal, constraints, spacing: spacing) }

    /// The parts of `area`, one per constraint, in order.
    public func split(_ area: Rect) -> [Rect] {
        let total = direction == .vertical ? area.height : area.width
        let lengths = Layout.lengths(total: total, constraints, spacing: spacing)
        var rects: [Rect] = []
        var offset = 0
        for length in lengths {
            switch direction {
            case .vertical: rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: length))
            case .horizontal: rects.append(Rect(x: area.x + offset, y: area.y, width: length, height: area.height))
            }
            offset = min(total, offset + length + spacing)
        }
        return rects
    }

    /// The length of each part when `total` cells are split by `constraints`.
    public static func lengths(total: Int, _ constraints: [Constraint], spacing: Int = 0) -> [Int] {
        let gaps = max(0, constraints.count - 1) * max(0, spacing)
        var remaining = max(0, total - gaps)
        let available = remaining
        var lengths = Array(repeating: 0, count: constraints.count)
        var fillWeight = 0
        for (i, constraint) in constraints.enumerated() {
            switch constraint {
            case .fixed(let n): lengths[i] = min(max(0, n), remaining)
            case .percentage(let p): lengths[i] = min(available * max(0, min(100, p)) / 100, remaining)
            case .fill(let w): fillWeight += max(0, w)
            }
            remaining -= lengths[i]
        }
        guard fillWeight > 0 else { return lengths }
        var left = remaining
        var lastFill: Int?
        for (i, constraint) in constraints.enumerated() {
            if case .fill(let w) = constraint {
                lengths[i] = remaining * max(0, w) / fillWeight
                left -= lengths[i]
                if w > 0 { lastFill = i }
            }
        }
        if let last = lastFill { lengths[last] += left }
        return lengths
    }
}
