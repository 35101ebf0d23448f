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
