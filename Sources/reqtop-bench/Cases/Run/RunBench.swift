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
            for _ in 0..<settings.downloadRuns {
                mine.append(try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", list, "--headless", "--concurrency", "1"]))
                theirs.append(try BenchProcess.runMeasuringMemory(["curl", "-s", "-K", curlConfig]))
            }
            let failures = mine.filter { $0.status != 0 }.count + theirs.filter { $0.status != 0 }.count
            let rss = Stats.median(mine.map(\.peakRSS)), curlRSS = Stats.median(theirs.map(\.peakRSS))
            let rate = Double(count * expected) / Stats.median(mine.map(\.wall))
            let curlRate = Double(count * expected) / Stats.median(theirs.map(\.wall))
            log("reqtop run \(label): \(Figure.throughput(rate)) \(Figure.megabytes(rss)), curl \(Figure.throughput(curlRate)) \(Figure.megabytes(curlRSS)), \(failures) failed runs")
            rows.append(BenchRow("reqtop run, \(label): peak RSS", reqtop: Figure.megabytes(rss), peers: "curl " + Figure.megabytes(curlRSS),
                                 ratio: rss / curlRSS, target: "≤ 30 MB", met: rss <= 30 * 1_048_576,
                                 values: ["reqtop_rss_bytes": rss, "curl_rss_bytes": curlRSS, "failed_runs": Double(failures)]))
            if count == 1, expected > 100 << 20 {
                rows.append(BenchRow("reqtop run, \(label): throughput", reqtop: Figure.throughput(rate), peers: "curl " + Figure.throughput(curlRate),
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
        var atSixtyFour: ProcessOutcome?
        for concurrency in settings.replayConcurrencies {
            let mine = try BenchProcess.runMeasuringMemory([Binaries.reqtop, "run", files.httpFile, "--headless", "--events", "jsonl",
                                             "--concurrency", "\(concurrency)"])
            let theirs = try BenchProcess.runMeasuringMemory(["curl", "--parallel", "--parallel-max", "\(concurrency)", "-s", "-K", files.curlConfig])
            if concurrency == 64 { atSixtyFour = mine }
            let rate = Double(n) / mine.wall, curlRate = Double(n) / theirs.wall
            let cpu = mine.cpu / Double(n), curlCPU = theirs.cpu / Double(n)
            log("long run \(n) c=\(concurrency): reqtop \(Figure.rate(rate)) \(Figure.micros(cpu)) \(Figure.megabytes(mine.peakRSS)) (exit \(mine.status)), "
                + "curl \(Figure.rate(curlRate)) \(Figure.micros(curlCPU)) \(Figure.megabytes(theirs.peakRSS)) (exit \(theirs.status))")
            let values = ["reqtop_wall_s": mine.wall, "curl_wall_s": theirs.wall, "reqtop_cpu_s": mine.cpu, "curl_cpu_s": theirs.cpu,
                          "reqtop_rss_bytes": mine.peakRSS, "curl_rss_bytes": theirs.peakRSS, "requests": Double(n),
                          "reqtop_exit": Double(mine.status), "curl_exit": Double(theirs.status)]
            rows.append(BenchRow("\(n) requests c=\(concurrency) req/s: reqtop run --events jsonl vs curl --parallel", reqtop: Figure.rate(rate),
                                 peers: "curl " + Figure.rate(curlRate), ratio: rate / curlRate, target: "≥ 1.0×", met: rate / curlRate >= 1.0,
                                 values: values))
            rows.append(BenchRow("\(n) requests c=\(concurrency) CPU/request: reqtop run --events jsonl vs curl --parallel", reqtop: Figure.micros(cpu),
                                 peers: "curl " + Figure.micros(curlCPU), ratio: cpu / curlCPU, target: "≤ 1.2×", met: cpu / curlCPU <= 1.2))
            if let hey = Binaries.hey {
                // The same URL n times from c workers (hey spreads n over them), keep-alive as curl.
                let load = try BenchProcess.runMeasuringMemory([hey, "-n", "\(n)", "-c", "\(concurrency)", url])
                let heyRate = Double(n) / load.wall, heyCPU = load.cpu / Double(n)
                log("long run \(n) c=\(concurrency): hey \(Figure.rate(heyRate)) \(Figure.micros(heyCPU)) (exit \(load.status))")
                rows.append(BenchRow("\(n) requests c=\(concurrency) req/s and CPU/request: reqtop run vs hey (a load generator; no target)",
                                     reqtop: "\(Figure.rate(rate)), \(Figure.micros(cpu))",
                                     peers: "hey \(Figure.rate(heyRate)), \(Figure.micros(heyCPU))", ratio: rate / heyRate,
                                     values: ["hey_wall_s": load.wall, "hey_cpu_s": load.cpu, "hey_exit": Double(load.status)]))
            } else if concurrency == settings.replayConcurrencies.first {
                log("long run: hey is not installed (make bench installs Debian's hey unless BENCH_QUICK): no hey figures")
            }
            rows.append(BenchRow("\(n) requests c=\(concurrency) headless (JSON Lines, no HAR): peak RSS", reqtop: Figure.megabytes(mine.peakRSS),
                                 peers: "curl " + Figure.megabytes(theirs.peakRSS), ratio: mine.peakRSS / theirs.peakRSS, target: "≤ 40 MB",
                                 met: mine.peakRSS <= 40 * 1_048_576))
        }
        rows.append(try harRun(files: files, without: atSixtyFour))
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
        return BenchRow("\(n) requests c=64 headless (JSON Lines): peak RSS", reqtop: Figure.megabytes(mine.peakRSS),
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
        return BenchRow("\(n) requests c=64 headless with --har: peak RSS", reqtop: Figure.megabytes(mine.peakRSS),
                        peers: "without --har " + Figure.megabytes(plain.peakRSS), ratio: mine.peakRSS / plain.peakRSS,
                        target: "≤ +32 MB", met: mine.status == 0 && mine.peakRSS - plain.peakRSS <= 32 * 1_048_576,
                        values: ["reqtop_rss_bytes": mine.peakRSS, "without_har_rss_bytes": plain.peakRSS, "har_bytes": Double(size),
                                 "reqtop_wall_s": mine.wall, "reqtop_exit": Double(mine.status)])
    }
}
