import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// Session-wide figures for the header: counts by state, rates and latency percentiles.
package struct Aggregates: Sendable {
    package var counts: [TaskState: Int] = [:]
    package var total: Int = 0
    /// Tasks that ended per second, over the last few seconds.
    package var requestsPerSecond: Double = 0
    /// Body bytes received per second, over the last few seconds.
    package var bytesPerSecond: Double = 0
    /// Latency of completed tasks, in milliseconds (nil before the first).
    package var p50: Double?
    package var p95: Double?
    package var max: Double?
    package var bytesReceived: Int64 = 0

    package func count(_ state: TaskState) -> Int { counts[state, default: 0] }
}

/// Latencies in log-spaced buckets (±2.5 %), so percentiles cost the same at 100 or 100,000 tasks.
struct LatencyHistogram {
    private static let ratio = 1.05
    private static let floor = 0.01 // ms
    private var buckets: [Int] = []
    private(set) var count = 0
    private(set) var max: Double = 0

    mutating func add(_ milliseconds: Double) {
        let value = Swift.max(milliseconds, Self.floor)
        let index = Int((log(value / Self.floor) / log(Self.ratio)).rounded(.down))
        if index >= buckets.count { buckets += Array(repeating: 0, count: index - buckets.count + 1) }
        buckets[index] += 1
        count += 1
        max = Swift.max(max, milliseconds)
    }

    /// The value below which `fraction` of the samples fall (bucket midpoint), or nil when empty.
    func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((fraction * Double(count)).rounded(.up))
        var seen = 0
        for (index, n) in buckets.enumerated() where n > 0 {
            seen += n
            if seen >= Swift.max(rank, 1) {
                let middle = Self.floor * pow(Self.ratio, Double(index) + 0.5)
                return Swift.min(middle, max)
            }
        }
        return max
    }
}

/// Per-second counters over a sliding window, for rates.
struct RateWindow {
    private let seconds: Int
    private var slots: [(second: Int, requests: Int, bytes: Int64)]

    init(seconds: Int = 5) {
        self.seconds = seconds
        slots = Array(repeating: (-1, 0, 0), count: seconds)
    }

    mutating func add(requests: Int = 0, bytes: Int64 = 0, at time: Double) {
        let second = Int(time)
        let slot = second % seconds
        if slots[slot].second != second { slots[slot] = (second, 0, 0) }
        slots[slot].requests += requests
        slots[slot].bytes += bytes
    }

    /// (requests/s, bytes/s) over the window ending at `now`.
    func rates(now: Double) -> (Double, Double) {
        let current = Int(now)
        let live = slots.filter { $0.second > current - seconds && $0.second <= current }
        let span = Double(seconds)
        return (Double(live.reduce(0) { $0 + $1.requests }) / span, Double(live.reduce(0) { $0 + $1.bytes }) / span)
    }
}
