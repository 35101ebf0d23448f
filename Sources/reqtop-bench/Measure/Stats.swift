/// Summaries of repeated measurements.
enum Stats {
    /// The median (mean of the middle two for an even count); 0 for no samples.
    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    /// The `p`-quantile by linear interpolation between closest ranks; 0 for no samples.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = p * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

/// One figure over its runs: the median, which the table's ratios use, and the lowest and highest.
struct Spread: Codable {
    var min: Double
    var median: Double
    var max: Double
    var runs: Int

    init(min: Double, median: Double, max: Double, runs: Int) {
        self.min = min
        self.median = median
        self.max = max
        self.runs = runs
    }

    init(_ samples: [Double]) {
        min = samples.min() ?? 0
        median = Stats.median(samples)
        max = samples.max() ?? 0
        runs = samples.count
    }

    /// The figure through `transform` (a rate from a wall time): a decreasing one swaps the ends.
    func map(_ transform: (Double) -> Double) -> Spread {
        var result = self
        let low = transform(min), high = transform(max)
        result.min = Swift.min(low, high)
        result.median = transform(median)
        result.max = Swift.max(low, high)
        return result
    }
}
