import Foundation

/// The whole `reqtop run` process beside curl where issue 17 set goals: large bodies (peak RSS and
/// speed) and a long run of small requests (req/s, CPU per request and peak RSS), each measured
/// as a child process (`wait4`'s CPU time and `ru_maxrss`).
struct RunBench {
    let settings: BenchSettings

    func run() throws -> [BenchRow] {
        let directory = NSTemporaryDirectory() + "reqtop-bench-run-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rows: [BenchRow] = []
        rows += try bodies(in: directory)
        rows += try longRun()
        return rows
    }

    // MARK: Large bodies

    private func bodies(in directory: String) throws -> [BenchRow] {
        let hundred = settings.nginxURL + "/files/100m.bin", large = settings.nginxURL + "/files/large.bin"
        var rows: [BenchRow] = []
        for (label, url, count, expected) in [("one 100 MB body", hundred, 1, 100 << 20), ("10 × 100 MB at c=1", hundred, 10, 100 << 20),
                                              ("one \(settings.largeFileMB) MB body", large, 1, settings.largeFileMB << 20)] {
            let list = directory + "/bodies-\(count)-\(expected).http"
            try (0..<count).map { _ in "GET \(url)\n" }.joined(separator: "\n###\n\n").write(toFile: list, atomically: true, encoding: .utf8)
            let curlConfig = directory + "/bodies-\(count)-\(expected).curl"
            try String(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: count).write(toFile: curlConfig, atomically: true, encoding: .utf8)
            var mine: [ProcessOutcome] = [], theirs: [ProcessOutcome] = []
            // One untimed read first: the file was just written, and the first timed run (always reqtop's)
            // waited for the disk — 384 MB/s against 2,500–4,300 MB/s after it.
            _ = try BenchProcess.runMeasuringMemory(["curl", "-s", "-o", "/dev/null", url])
            for _ in 0..<settings.downloadRuns {
                mine.append(try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", list, "--headless", "--concurrency", "1"]))
                theirs.append(try BenchProcess.runMeasuringMemory(["curl", "-s", "-K", curlConfig]))
            }
            let failures = mine.filter { $0.status != 0 }.count + theirs.filter { $0.status != 0 }.count
            let rss = Stats.median(mine.map(\.peakRSS)), curlRSS = Stats.median(theirs.map(\.peakRSS))
            let rate = Double(count * expected) / Stats.median(mine.map(\.wall))
            let curlRate = Double(count * expected) / Stats.median(theirs.map(\.wall))
            log("reqtop run \(label): \(Figure.throughput(rate)) \(Figure.megabytes(rss)), curl \(Figure.throughput(curlRate)) \(Figure.megabytes(curlRSS)), \(failures) failed runs")
            let rssSpread = Spread(mine.map(\.peakRSS)), curlRSSSpread = Spread(theirs.map(\.peakRSS))
            let rateSpread = Spread(mine.map(\.wall)).map { Double(count * expected) / $0 }
            let curlRateSpread = Spread(theirs.map(\.wall)).map { Double(count * expected) / $0 }
            rows.append(BenchRow("reqtop run, \(label): peak RSS", reqtop: Figure.spread(rssSpread, Figure.megabytes),
                                 peers: "curl " + Figure.spread(curlRSSSpread, Figure.megabytes),
                                 ratio: rss / curlRSS, target: "≤ 30 MB", met: rss <= 30 * 1_048_576,
                                 values: ["reqtop_rss_bytes": rss, "curl_rss_bytes": curlRSS, "failed_runs": Double(failures)]))
            if count == 1, expected > 100 << 20 {
                rows.append(BenchRow("reqtop run, \(label): throughput", reqtop: Figure.spread(rateSpread, Figure.throughput),
                                     peers: "curl " + Figure.spread(curlRateSpread, Figure.throughput),
                                     ratio: rate / curlRate, target: "≥ 0.9×", met: rate / curlRate >= 0.9,
                                     values: ["reqtop_bytes_per_s": rate, "curl_bytes_per_s": curlRate]))
            }
        }
        return rows
    }

    // MARK: A long run of small requests

    private func longRun() throws -> [BenchRow] {
        let url = settings.nginxURL + "/files/100b.bin"
        let files = try RequestFiles(url: url, count: settings.longRunRequests)
        defer { files.remove() }
        var rows: [BenchRow] = []
        let n = settings.longRunRequests
        // Runs interleaved — every concurrency and client once, then again — so drift hits all alike.
        var mine: [Int: [ProcessOutcome]] = [:], theirs: [Int: [ProcessOutcome]] = [:], hey: [Int: [ProcessOutcome]] = [:]
        for _ in 0..<settings.longRuns {
            for concurrency in settings.replayConcurrencies {
                let run = try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", files.httpFile, "--headless", "--events", "jsonl",
                                                               "--concurrency", "\(concurrency)"])
                let curl = try BenchProcess.runMeasuringMemory(["curl", "--parallel", "--parallel-max", "\(concurrency)", "-s", "-K", files.curlConfig])
                mine[concurrency, default: []].append(run)
                theirs[concurrency, default: []].append(curl)
                log("long run \(n) c=\(concurrency): reqtop \(Figure.rate(Double(n) / run.wall)) \(Figure.micros(run.cpu / Double(n))) "
                    + "\(Figure.megabytes(run.peakRSS)) (exit \(run.status)), curl \(Figure.rate(Double(n) / curl.wall)) "
                    + "\(Figure.micros(curl.cpu / Double(n))) \(Figure.megabytes(curl.peakRSS)) (exit \(curl.status))")
                if let binary = Binaries.hey {
                    // The same URL n times from c workers (hey spreads n over them), keep-alive as curl.
                    let load = try BenchProcess.runMeasuringMemory([binary, "-n", "\(n)", "-c", "\(concurrency)", url])
                    hey[concurrency, default: []].append(load)
                    log("long run \(n) c=\(concurrency): hey \(Figure.rate(Double(n) / load.wall)) \(Figure.micros(load.cpu / Double(n))) (exit \(load.status))")
                }
            }
        }
        if Binaries.hey == nil { log("long run: hey is not installed (make bench installs Debian's hey unless BENCH_QUICK): no hey figures") }
        for concurrency in settings.replayConcurrencies {
            let mine = mine[concurrency] ?? [], theirs = theirs[concurrency] ?? []
            let rate = Spread(mine.map(\.wall)).map { Double(n) / $0 }, curlRate = Spread(theirs.map(\.wall)).map { Double(n) / $0 }
            let cpu = Spread(mine.map { $0.cpu / Double(n) }), curlCPU = Spread(theirs.map { $0.cpu / Double(n) })
            let rss = Spread(mine.map(\.peakRSS)), curlRSS = Spread(theirs.map(\.peakRSS))
            let failures = mine.filter { $0.status != 0 }.count
            let values = ["reqtop_rps": rate.median, "curl_rps": curlRate.median, "reqtop_cpu_per_request_s": cpu.median,
                          "curl_cpu_per_request_s": curlCPU.median, "reqtop_rss_bytes": rss.median, "curl_rss_bytes": curlRSS.median,
                          "requests": Double(n), "runs": Double(mine.count), "reqtop_failed_runs": Double(failures),
                          "curl_failed_runs": Double(theirs.filter { $0.status != 0 }.count)]
            rows.append(BenchRow("\(n) requests c=\(concurrency) req/s: reqtop run --events jsonl vs curl --parallel",
                                 reqtop: Figure.rate(rate), peers: "curl " + Figure.rate(curlRate),
                                 ratio: rate.median / curlRate.median, target: "≥ 1.0×", met: rate.median / curlRate.median >= 1.0, values: values))
            rows.append(BenchRow("\(n) requests c=\(concurrency) CPU/request: reqtop run --events jsonl vs curl --parallel",
                                 reqtop: Figure.spread(cpu, Figure.micros), peers: "curl " + Figure.spread(curlCPU, Figure.micros),
                                 ratio: cpu.median / curlCPU.median, target: "≤ 1.2×", met: cpu.median / curlCPU.median <= 1.2))
            if let load = hey[concurrency], !load.isEmpty {
                let heyRate = Spread(load.map(\.wall)).map { Double(n) / $0 }, heyCPU = Spread(load.map { $0.cpu / Double(n) })
                rows.append(BenchRow("\(n) requests c=\(concurrency) req/s and CPU/request: reqtop run vs hey (a load generator; no target)",
                                     reqtop: "\(Figure.rate(rate)), \(Figure.spread(cpu, Figure.micros))",
                                     peers: "hey \(Figure.rate(heyRate)), \(Figure.spread(heyCPU, Figure.micros))",
                                     ratio: rate.median / heyRate.median,
                                     values: ["hey_rps": heyRate.median, "hey_cpu_per_request_s": heyCPU.median,
                                              "hey_failed_runs": Double(load.filter { $0.status != 0 }.count)]))
            }
            rows.append(BenchRow("\(n) requests c=\(concurrency) headless (JSON Lines, no HAR): peak RSS", reqtop: Figure.spread(rss, Figure.megabytes),
                                 peers: "curl " + Figure.spread(curlRSS, Figure.megabytes), ratio: rss.median / curlRSS.median, target: "≤ 40 MB",
                                 met: rss.median <= 40 * 1_048_576 && failures == 0))
        }
        rows.append(try harRun(files: files, without: mine[64]?.last))
        rows.append(try millionRun())
        return rows
    }

    /// A million requests (a generated list of 48 MB) at c=64: the list is read where it lies and a
    /// finished request keeps nothing, so memory stays flat (issue 30: ≤ 60 MB). reqtop alone.
    private func millionRun() throws -> BenchRow {
        let n = settings.quick ? 2000 : 1_000_000
        let files = try RequestFiles(url: settings.nginxURL + "/files/100b.bin", count: n)
        defer { files.remove() }
        let mine = try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", files.httpFile, "--headless", "--events", "jsonl",
                                                        "--concurrency", "64"])
        log("million run \(n): \(Figure.rate(Double(n) / mine.wall)) \(Figure.megabytes(mine.peakRSS)) (exit \(mine.status))")
        return BenchRow("\(n) requests c=64 headless (JSON Lines): peak RSS", reqtop: Figure.spread(Spread([mine.peakRSS]), Figure.megabytes),
                        peers: "\(Figure.rate(Double(n) / mine.wall)), exit \(mine.status)", target: "≤ 60 MB",
                        met: settings.quick ? nil : mine.peakRSS <= 60 * 1_048_576 && mine.status == 0,
                        values: ["reqtop_rss_bytes": mine.peakRSS, "reqtop_wall_s": mine.wall, "requests": Double(n)])
    }

    /// The long run at c=64 writing `--har`: entries leave memory as tasks end, so the HAR adds a
    /// bounded amount (the bodies of the tasks in flight, the writer) to the run's peak RSS, not an
    /// amount per task (it added 200 KB+ per 100 tasks when the whole session was held to the end).
    /// - Parameter without: the same run without `--har`, when the loop above made it.
    private func harRun(files: RequestFiles, without: ProcessOutcome?) throws -> BenchRow {
        let n = settings.longRunRequests
        let har = files.directory + "/run.har"
        let plain = try without ?? BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", files.httpFile, "--headless", "--events", "jsonl",
                                                                    "--concurrency", "64"])
        let mine = try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", files.httpFile, "--headless", "--events", "jsonl",
                                                        "--concurrency", "64", "--har", har, "--no-journal"])
        let size = (try? FileManager.default.attributesOfItem(atPath: har)[.size] as? Int) ?? 0
        log("long run \(n) c=64 --har: \(Figure.megabytes(mine.peakRSS)) (without --har \(Figure.megabytes(plain.peakRSS))), "
            + "HAR \(Figure.megabytes(Double(size))), \(Figure.millis(mine.wall)) (exit \(mine.status))")
        return BenchRow("\(n) requests c=64 headless with --har: peak RSS", reqtop: Figure.spread(Spread([mine.peakRSS]), Figure.megabytes),
                        peers: "without --har " + Figure.megabytes(plain.peakRSS), ratio: mine.peakRSS / plain.peakRSS,
                        target: "≤ +32 MB", met: mine.status == 0 && mine.peakRSS - plain.peakRSS <= 32 * 1_048_576,
                        values: ["reqtop_rss_bytes": mine.peakRSS, "without_har_rss_bytes": plain.peakRSS, "har_bytes": Double(size),
                                 "reqtop_wall_s": mine.wall, "reqtop_exit": Double(mine.status)])
    }
}
