import Foundation

/// The machine a run was taken on: what the README and the JSON name.
struct Machine: Codable {
    var cores: Int
    var cpu: String
    var kernel: String
    var swift: String
    var curl: String
    var loadAverage: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "unknown")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model, kernel: kernel,
                       swift: firstLine(of: ["swift", "--version"]), curl: firstLine(of: ["curl", "--version"]),
                       loadAverage: load)
    }

    /// One line for the report.
    var line: String {
        "\(cores) cores · \(cpu) · Linux \(kernel) · \(swift) · \(curl) · load at start \(loadAverage)"
    }

    private static func firstLine(of command: [String]) -> String {
        guard let outcome = try? BenchProcess.run(command, captureOutput: true, timeout: 30) else { return "\(command[0]): not found" }
        return outcome.output.split(separator: "\n").first.map(String.init) ?? "unknown"
    }
}
