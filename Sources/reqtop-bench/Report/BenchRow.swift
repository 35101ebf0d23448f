/// One line of the results table: reqtop's figure beside its peers', their ratio and the target.
struct BenchRow: Codable {
    /// What was measured, e.g. `replay c=64 req/s: reqtop run vs curl --parallel`.
    var name: String
    /// reqtop's median, formatted with its unit.
    var reqtop: String
    /// The peers' medians, formatted ("—" when there is no peer).
    var peers: String
    /// reqtop ÷ peer, in the direction the target is written; nil without a peer.
    var ratio: Double?
    /// The target, e.g. `≥ 1.0×`; "—" for information only.
    var target: String
    /// Whether the target was met; nil for information only.
    var met: Bool?
    /// The raw medians (and anything else worth keeping) by name, in base units (seconds, bytes, requests).
    var values: [String: Double]

    init(_ name: String, reqtop: String, peers: String = "—", ratio: Double? = nil, target: String = "—",
         met: Bool? = nil, values: [String: Double] = [:]) {
        self.name = name
        self.reqtop = reqtop
        self.peers = peers
        self.ratio = ratio
        self.target = target
        self.met = met
        self.values = values
    }

    /// A row with no figures, for a case that could not run (the reason goes in `reqtop`).
    static func skipped(_ name: String, reason: String) -> BenchRow {
        BenchRow(name, reqtop: "not run: \(reason)")
    }
}

/// Formatting of figures for the table.
enum Figure {
    static func rate(_ perSecond: Double, unit: String = "req/s") -> String { "\(grouped(perSecond)) \(unit)" }

    static func micros(_ seconds: Double) -> String { fixed(seconds * 1e6, seconds * 1e6 < 10 ? 2 : 1) + " µs" }

    static func millis(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return fixed(ms, ms < 1 ? 3 : (ms < 10 ? 2 : 1)) + " ms"
    }

    static func megabytes(_ bytes: Double) -> String { fixed(bytes / 1_048_576, 1) + " MB" }

    static func throughput(_ bytesPerSecond: Double) -> String { grouped(bytesPerSecond / 1_048_576) + " MB/s" }

    static func bytes(_ value: Double) -> String { "\(grouped(value)) B" }

    static func ratio(_ value: Double) -> String { fixed(value, 2) + "×" }

    /// A median with its runs' lowest and highest, `12,446 req/s (11,980–12,731 req/s)`; a figure of
    /// one run says so.
    static func spread(_ spread: Spread, _ format: (Double) -> String) -> String {
        let median = format(spread.median)
        guard spread.runs > 1 else { return median + (spread.runs == 1 ? " (1 run)" : "") }
        var low = format(spread.min)
        let high = format(spread.max)
        if low == high { return "\(median) (all \(spread.runs) runs)" }
        // The unit once, after the highest: `(11,980–12,731 req/s)`.
        if let space = low.lastIndex(of: " "), let highSpace = high.lastIndex(of: " "), low[space...] == high[highSpace...] {
            low = String(low[..<space])
        }
        return "\(median) (\(low)–\(high))"
    }

    /// Requests per second over runs: `12,446 req/s (11,980–12,731 req/s)`.
    static func rate(_ runs: Spread) -> String { spread(runs) { rate($0) } }

    /// What each run's latency added to `base` (the direct median), in milliseconds.
    static func added(_ latencies: [Double], over base: Double) -> String {
        spread(Spread(latencies.map { $0 - base }), millis)
    }

    /// A proxy case's peers: mitmdump (when it ran) and the server directly.
    static func proxyPeers(mitmdump: Spread?, direct: Spread) -> String {
        (mitmdump.map { "mitmdump " + rate($0) + " · " } ?? "") + "direct " + rate(direct)
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if digits == 0 { text = String(text[..<dot]) } else if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }

    /// An integer with thin thousands separators (`12 345`).
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, ch) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0, ch != "-" { out.append(",") }
            out.append(ch)
        }
        return String(out.reversed())
    }
}
