import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopTestServer

/// `reqtop proxy` in front of nginx, beside no proxy at all and beside `mitmdump` (mitmproxy, from
/// `.venv-bench`) on the same machine: requests per second for many small GETs at c=8 through
/// `curl --parallel`, the latency one sequential GET on a kept-alive connection adds, and the
/// proxy's CPU per request and peak RSS.
struct ProxyBench {
    let settings: BenchSettings

    private struct Sample {
        var wall: Double
        var failed: Bool
    }

    func run() throws -> [BenchRow] {
        let url = settings.nginxURL + "/files/100b.bin"
        let count = settings.quick ? 200 : 4000
        let sequential = settings.quick ? 50 : 1000
        let parallel = try RequestFiles(url: url, count: count)
        defer { parallel.remove() }
        let serial = try RequestFiles(url: url, count: sequential)
        defer { serial.remove() }

        func measure(proxy: String?) throws -> (rate: Double, latency: Double, failures: Int, rates: Spread, latencies: [Double]) {
            let via = proxy.map { ["-x", $0] } ?? ["--noproxy", "*"]
            var rates: [Double] = [], latencies: [Double] = []
            var failures = 0
            for _ in 0..<max(1, settings.replayRuns) {
                let many = try BenchProcess.run(["curl", "-s", "--parallel", "--parallel-max", "8", "-K", parallel.curlConfig] + via)
                let one = try BenchProcess.run(["curl", "-s", "-K", serial.curlConfig] + via)
                if many.status != 0 || one.status != 0 { failures += 1 }
                rates.append(Double(count) / many.wall)
                latencies.append(one.wall / Double(sequential))
            }
            return (Stats.median(rates), Stats.median(latencies), failures, Spread(rates), latencies)
        }

        let direct = try measure(proxy: nil)
        let reqtopPort = LoopbackPort.unused()
        let reqtop = try BackgroundProcess([Binaries.reqtop, "proxy", "--headless", "--events", "jsonl", "--port", String(reqtopPort)],
                                           port: reqtopPort)
        let mine = try measure(proxy: "http://127.0.0.1:\(reqtopPort)")
        let mineUsage = reqtop.stop()
        let mineRequests = Double(max(1, settings.replayRuns) * (count + sequential))

        var theirs: (rate: Double, latency: Double, failures: Int, rates: Spread, latencies: [Double])?
        var theirUsage: BackgroundProcess.Usage?
        let mitmdump = FileManager.default.currentDirectoryPath + "/.venv-bench/bin/mitmdump"
        if FileManager.default.isExecutableFile(atPath: mitmdump) {
            let port = LoopbackPort.unused()
            let peer = try BackgroundProcess([mitmdump, "-q", "--listen-host", "127.0.0.1", "-p", String(port)], port: port)
            theirs = try measure(proxy: "http://127.0.0.1:\(port)")
            theirUsage = peer.stop()
        } else {
            log("proxy: \(mitmdump) is missing (make bench installs mitmproxy there unless BENCH_QUICK): no mitmdump figures")
        }

        let added = mine.latency - direct.latency
        let theirAdded = theirs.map { $0.latency - direct.latency }
        log("proxy: direct \(Figure.rate(direct.rate)), reqtop \(Figure.rate(mine.rate)), mitmdump \(theirs.map { Figure.rate($0.rate) } ?? "–"); "
            + "added latency reqtop \(Figure.millis(added)), mitmdump \(theirAdded.map(Figure.millis) ?? "–")")
        let peerRate = Figure.proxyPeers(mitmdump: theirs?.rates, direct: direct.rates)
        let cpuPerRequest = mineUsage.cpu / mineRequests
        let theirCPU = theirUsage.map { $0.cpu / mineRequests }
        var values: [String: Double] = ["direct_req_per_s": direct.rate, "reqtop_req_per_s": mine.rate, "direct_latency_s": direct.latency,
                                        "reqtop_latency_s": mine.latency, "reqtop_added_latency_s": added,
                                        "reqtop_cpu_per_request_s": cpuPerRequest, "reqtop_peak_rss_bytes": Double(mineUsage.peakRSS),
                                        "failed_runs": Double(direct.failures + mine.failures + (theirs?.failures ?? 0))]
        if let theirs, let theirUsage, let theirAdded, let theirCPU {
            values["mitmdump_req_per_s"] = theirs.rate
            values["mitmdump_added_latency_s"] = theirAdded
            values["mitmdump_cpu_per_request_s"] = theirCPU
            values["mitmdump_peak_rss_bytes"] = Double(theirUsage.peakRSS)
        }
        return [
            BenchRow("proxy c=8 req/s (100 B GETs): reqtop proxy vs mitmdump", reqtop: Figure.rate(mine.rates), peers: peerRate,
                     ratio: theirs.map { mine.rate / $0.rate }, target: theirs == nil ? "—" : "≥ 1.0× mitmdump",
                     met: theirs.map { mine.rate >= $0.rate }, values: values),
            BenchRow("proxy added latency per sequential GET (keep-alive)", reqtop: Figure.added(mine.latencies, over: direct.latency),
                     peers: theirs.map { "mitmdump " + Figure.added($0.latencies, over: direct.latency) } ?? "—", ratio: theirAdded.map { added / $0 },
                     target: theirAdded == nil ? "—" : "≤ 1.0× mitmdump", met: theirAdded.map { added <= $0 }),
            BenchRow("proxy CPU per request, peak RSS", reqtop: "\(Figure.micros(cpuPerRequest)), \(Figure.megabytes(Double(mineUsage.peakRSS)))",
                     peers: theirUsage.map { "mitmdump \(Figure.micros($0.cpu / mineRequests)), \(Figure.megabytes(Double($0.peakRSS)))" } ?? "—",
                     ratio: theirCPU.map { cpuPerRequest / $0 }, target: theirCPU == nil ? "—" : "≤ 1.0× mitmdump CPU",
                     met: theirCPU.map { cpuPerRequest <= $0 }),
        ]
    }
}

/// A server child (a proxy) started for a case and stopped after it, with its CPU time and peak RSS.
final class BackgroundProcess {
    struct Usage {
        var cpu: Double
        var peakRSS: Int
    }

    private let pid: pid_t

    /// Starts `arguments` (its output to `stdout`) and waits (up to 30 s) until it accepts connections on `port`.
    init(_ arguments: [String], port: Int, stdout: String = "/dev/null") throws {
        pid = try BenchProcess.spawn(arguments, stdout: stdout)
        let deadline = Clock.now() + 30
        while Clock.now() < deadline {
            if LoopbackPort.accepts(port) { return }
            usleep(20_000) // readiness probe: the port is all there is to wait on
        }
        _ = stop()
        throw BenchProcess.Failure(description: "\(arguments[0]) did not listen on \(port) within 30 s")
    }

    /// Peak RSS (VmHWM) now, then SIGTERM and the child's CPU seconds from `wait4`.
    func stop() -> Usage {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") } ?? 0
        kill(pid, SIGTERM)
        var code: Int32 = 0
        var usage = rusage()
        while wait4(pid, &code, 0, &usage) < 0 && errno == EINTR {}
        return Usage(cpu: Clock.seconds(usage.ru_utime) + Clock.seconds(usage.ru_stime), peakRSS: peak * 1024)
    }
}
