import Foundation

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
        return value < 10 ? String(format: "%.1f %@", value, units[unit]) : String(format: "%.0f %@", value, units[unit])
    }
}

/// "45 ms" / "1.2 s" style durations from milliseconds; "–" for not applicable (−1).
package enum Milliseconds {
    package static func format(_ ms: Double) -> String {
        if ms < 0 { return "–" }
        if ms < 10 { return String(format: "%.1f ms", ms) }
        if ms < 1000 { return String(format: "%.0f ms", ms) }
        return String(format: "%.2f s", ms / 1000)
    }
}
