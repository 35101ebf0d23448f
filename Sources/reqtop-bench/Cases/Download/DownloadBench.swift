import Foundation

/// The large file to a file and to /dev/null: reqtop (a child `reqtop-bench download`) vs `curl -o`.
/// Wall time is the whole process for both; peak RSS comes from `/usr/bin/time -f %M` for both.
struct DownloadBench {
    let settings: BenchSettings

    private struct Sample {
        var wall: Double
        var peakRSS: Double
        var ok: Bool
    }

    func run() throws -> [BenchRow] {
        let url = settings.nginxURL + "/files/large.bin"
        let expected = Int64(settings.largeFileMB) << 20
        let directory = NSTemporaryDirectory() + "reqtop-bench-download-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let timeAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        if !timeAvailable { log("download: /usr/bin/time is missing (apt-get install time); curl's peak RSS is not measured") }

        var rows: [BenchRow] = []
        for target in ["file", "/dev/null"] {
            var mine: [Sample] = [], theirs: [Sample] = []
            for _ in 0..<settings.downloadRuns {
                let file = target == "file" ? directory + "/large.bin" : "/dev/null"
                mine.append(try measure([Binaries.bench, "download", url, file], file: file, expected: expected, timed: timeAvailable))
                theirs.append(try measure(["curl", "-s", "-o", file, url], file: file, expected: expected, timed: timeAvailable))
            }
            let mineRate = Stats.median(mine.map { Double(expected) / $0.wall })
            let theirRate = Stats.median(theirs.map { Double(expected) / $0.wall })
            let mineRSS = Stats.median(mine.map(\.peakRSS)), theirRSS = Stats.median(theirs.map(\.peakRSS))
            let failures = (mine + theirs).filter { !$0.ok }.count
            let size = "\(settings.largeFileMB) MB to \(target == "file" ? "a file" : "/dev/null")"
            log("download \(size): reqtop \(Figure.throughput(mineRate)) \(Figure.megabytes(mineRSS)), curl \(Figure.throughput(theirRate)) \(Figure.megabytes(theirRSS)), \(failures) failed runs")
            let values = ["reqtop_bytes_per_s": mineRate, "curl_bytes_per_s": theirRate, "reqtop_peak_rss_bytes": mineRSS,
                          "curl_peak_rss_bytes": theirRSS, "failed_runs": Double(failures), "bytes": Double(expected)]
            let mineRates = Spread(mine.map { Double(expected) / $0.wall }), theirRates = Spread(theirs.map { Double(expected) / $0.wall })
            rows.append(BenchRow("download \(size): throughput", reqtop: Figure.spread(mineRates, Figure.throughput),
                                 peers: "curl " + Figure.spread(theirRates, Figure.throughput), ratio: mineRate / theirRate, target: "≥ 0.9×",
                                 met: mineRate / theirRate >= 0.9, values: values))
            rows.append(BenchRow("download \(size): peak RSS", reqtop: Figure.spread(Spread(mine.map(\.peakRSS)), Figure.megabytes),
                                 peers: theirRSS > 0 ? "curl " + Figure.spread(Spread(theirs.map(\.peakRSS)), Figure.megabytes) : "curl: not measured",
                                 ratio: theirRSS > 0 ? mineRSS / theirRSS : nil, target: "≤ 30 MB",
                                 met: mineRSS <= 30 * 1_048_576, values: values))
        }
        return rows
    }

    /// Runs one download (under `/usr/bin/time` when available) and checks what arrived.
    private func measure(_ command: [String], file: String, expected: Int64, timed: Bool) throws -> Sample {
        let rssFile = NSTemporaryDirectory() + "reqtop-bench-rss-\(getpid())"
        defer { unlink(rssFile) }
        let isReqtop = command[0] == Binaries.bench
        let argv = timed ? ["/usr/bin/time", "-f", "%M", "-o", rssFile] + command : command
        let outcome = try BenchProcess.run(argv, captureOutput: isReqtop, timeout: 600)
        var ok = outcome.status == 0
        if file != "/dev/null" {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? -1
            ok = ok && size == expected
            unlink(file)
        }
        var peak: Double = 0
        if timed, let text = try? String(contentsOfFile: rssFile, encoding: .utf8),
           let kb = text.split(separator: "\n").compactMap({ Double($0.trimmingCharacters(in: .whitespaces)) }).last {
            peak = kb * 1024
        } else if isReqtop, let reported = outcome.output.split(separator: " ").last.flatMap({ Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            peak = reported
        }
        if !ok { log("download: \(command.joined(separator: " ")) failed (status \(outcome.status))") }
        return Sample(wall: outcome.wall, peakRSS: peak, ok: ok)
    }
}
