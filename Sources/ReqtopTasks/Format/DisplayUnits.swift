import FoundationEssentials

/// "1.2 KB" style sizes, in SI units (1 KB = 1000 B), so a 200 MB download reads 200 MB.
package enum ByteCount {
    package static func format(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.5, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return fixedPoint(value, decimals: value < 10 ? 1 : 0) + " " + units[unit]
    }
}

/// `value` with `decimals` digits after the point, rounded as `%.Nf` rounds, for values ≥ 0. Written
/// by hand: `String(format:)`'s first call sets up Foundation's locale machinery (a millisecond of a
/// one-request run) and every call is slow in the TUI's frame.
func fixedPoint(_ value: Double, decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    guard let units = Int(exactly: (value * Double(scale)).rounded(.toNearestOrEven)) else {
        return String(printf: "%.\(decimals)f", value) // beyond Int: rare enough to pay for Foundation
    }
    guard decimals > 0 else { return "\(units)" }
    let fraction = String(units % scale)
    return "\(units / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// "45 ms" / "1.2 s" style durations from milliseconds; "–" for not applicable (−1).
package enum Milliseconds {
    /// `4.2 ms`, `45 ms`, `1.20 s` (rounded as `%.1f`, `%.0f`, `%.2f` round).
    package static func format(_ ms: Double) -> String {
        guard ms >= 0, ms.isFinite else { return "–" }
        if ms < 10, case let text = fixedPoint(ms, decimals: 1), text != "10.0" { return text + " ms" }
        if ms < 1000, case let text = fixedPoint(ms, decimals: 0), text != "1000" { return text + " ms" }
        return fixedPoint(ms / 1000, decimals: 2) + " s"
    }
}
