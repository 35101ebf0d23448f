import Foundation

/// Human-readable sizes and durations for headless output.
enum DisplayFormat {
    /// `512 B`, `1.2 KB`, `3.4 MB`, `1.1 GB` (1024-based).
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
    }

    /// `45 ms` below ten seconds, else `12.3 s`.
    static func milliseconds(_ ms: Double) -> String {
        if ms < 10_000 { return String(format: "%.0f ms", ms) }
        return String(format: "%.1f s", ms / 1000)
    }
}
