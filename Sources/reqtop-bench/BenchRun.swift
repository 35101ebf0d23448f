import Foundation

/// The whole benchmark: every case in order, one table on stdout, the same as JSON.
enum BenchRun {
    static func main() -> Int32 {
        let settings = BenchSettings.fromEnvironment()
        guard !settings.nginxURL.isEmpty else {
            log("REQTOP_NGINX_URL is not set: run through `make bench` (or scripts/with-test-servers.sh .build/release/reqtop-bench)")
            return 2
        }
        let machine = Machine.current()
        log(machine.line)
        let runAvailable = reqtopRunAvailable()
        if !runAvailable { log("\(Binaries.reqtop) has no `run` command (or is missing): reqtop run cases are skipped") }
        var rows: [BenchRow] = []
        var failed = false
        func section(_ name: String, _ body: () throws -> [BenchRow]) {
            guard settings.cases.contains(name) else { return }
            log("running \(name)…")
            do { rows += try body() } catch {
                log("\(name) failed: \(error)")
                rows.append(.skipped(name, reason: "\(error)"))
                failed = true
            }
        }
        section("replay") { try ReplayBench(settings: settings, reqtopRunAvailable: runAvailable).run() }
        section("parse") { try ParseBench(settings: settings).run() }
        section("run") {
            guard runAvailable else { return [.skipped("run", reason: "the reqtop binary has no `run` command")] }
            return try RunBench(settings: settings).run()
        }
        section("single") { try SingleRequestBench(settings: settings, reqtopRunAvailable: runAvailable).run() }
        section("download") { try DownloadBench(settings: settings).run() }
        section("proxy") { try ProxyBench(settings: settings).run() }
        section("proxy-h2") { try HTTP2ProxyBench(settings: settings).run() }
        section("attach") { try AttachBench(settings: settings).run() }
        section("tui") { try TUIBench(settings: settings).run() }
        section("bus") { BusBench(settings: settings).run() }
        section("scripts") { ScriptBench(settings: settings).run() }

        let report = Report(date: ISO8601DateFormatter().string(from: Date()), machine: machine, settings: settings, rows: rows)
        print(report.markdown)
        let path = ProcessInfo.processInfo.environment["BENCH_OUTPUT"] ?? "bench-results.json"
        do { try report.writeJSON(to: path) } catch {
            log("cannot write \(path): \(error)")
            return 1
        }
        log("wrote \(path)")
        return failed ? 1 : 0
    }

    /// Whether the reqtop binary next to this one has the `run` command (`reqtop run --help` succeeds and mentions it).
    static func reqtopRunAvailable() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: Binaries.reqtop),
              let outcome = try? BenchProcess.run([Binaries.reqtop, "run", "--help"], captureOutput: true, timeout: 10)
        else { return false }
        return outcome.status == 0 && outcome.output.contains("--concurrency")
    }
}
