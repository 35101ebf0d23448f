import Foundation

/// The whole run: the machine, the settings and the rows. Printed as one markdown table and saved as JSON.
struct Report: Codable {
    var date: String
    var machine: Machine
    var settings: BenchSettings
    var rows: [BenchRow]

    var markdown: String {
        var out = "Machine: \(machine.line)\n"
        out += "Settings: \(settings.summary)\n\n"
        out += "| case | reqtop | peer(s) | ratio | target | met? |\n|---|---|---|---|---|---|\n"
        for row in rows {
            let met = row.met.map { $0 ? "✅ yes" : "❌ no" } ?? "—"
            out += "| \(row.name) | \(row.reqtop) | \(row.peers) | \(row.ratio.map(Figure.ratio) ?? "—") | \(row.target) | \(met) |\n"
        }
        return out
    }

    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
