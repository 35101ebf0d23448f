import Foundation

/// What a run measures and how often, from the environment. `BENCH_QUICK=1` shrinks everything for a CI smoke run.
struct BenchSettings: Codable {
    /// nginx on loopback (`scripts/with-test-servers.sh` exports it).
    var nginxURL: String
    /// nginx's TLS port (HTTP/2 by ALPN) and the CA of its certificate.
    var nginxTLSURL: String
    var nginxCAFile: String
    var quick: Bool
    /// Requests per replay run.
    var replayRequests: Int
    var replayConcurrencies: [Int]
    var replayRuns: Int
    /// Requests in the long run (`run` case: req/s, CPU and peak RSS per concurrency), and its runs.
    var longRunRequests: Int
    var longRuns: Int
    var singleRuns: Int
    var downloadRuns: Int
    /// Size of nginx's large.bin as the run expects it (`REQTOP_LARGE_FILE_MB`).
    var largeFileMB: Int
    var tuiTasks: Int
    /// The TUI's figures again at a million finished tasks (issue 30's targets); 0 skips them.
    var tuiMillionTasks: Int
    var tuiEventsPerSecond: Int
    var tuiSeconds: Double
    /// Server-sent events the Stream tab case posts, over `streamEvents / 1000` seconds (`BENCH_STREAM_EVENTS`).
    var streamEvents: Int
    var busEvents: Int
    var busRuns: Int
    /// Which cases to run (`BENCH_CASES=replay,parse,run,single,download,proxy,proxy-h2,attach,tui,bus,scripts`; all by default).
    var cases: [String]

    static func fromEnvironment() -> BenchSettings {
        let env = ProcessInfo.processInfo.environment
        let quick = !(env["BENCH_QUICK"] ?? "").isEmpty && env["BENCH_QUICK"] != "0"
        func int(_ key: String, _ full: Int, _ small: Int) -> Int { env[key].flatMap { Int($0) } ?? (quick ? small : full) }
        return BenchSettings(
            nginxURL: env["REQTOP_NGINX_URL"] ?? "",
            nginxTLSURL: env["REQTOP_NGINX_TLS_URL"] ?? "",
            nginxCAFile: env["REQTOP_NGINX_CA_FILE"] ?? "",
            quick: quick,
            replayRequests: int("BENCH_REQUESTS", 5000, 200),
            replayConcurrencies: (env["BENCH_CONCURRENCY"] ?? "1,8,64").split(separator: ",").compactMap { Int($0) },
            replayRuns: int("BENCH_RUNS", 15, 1), // 5,000 requests take 0.2 s: a median of 15 (single runs on two shared cores spread by ±20 %)
            longRunRequests: int("BENCH_LONG_REQUESTS", 100_000, 500),
            longRuns: int("BENCH_LONG_RUNS", 3, 1),
            singleRuns: int("BENCH_SINGLE_RUNS", 60, 3), // a median of 60: one process start is milliseconds, and noisy
            downloadRuns: int("BENCH_DOWNLOAD_RUNS", 5, 1),
            largeFileMB: int("REQTOP_LARGE_FILE_MB", 256, 256), // what with-test-servers.sh serves unless told
            tuiTasks: int("BENCH_TUI_TASKS", 100_000, 2000),
            tuiMillionTasks: int("BENCH_TUI_MILLION", 1_000_000, 4000),
            tuiEventsPerSecond: int("BENCH_TUI_EVENTS_PER_SECOND", 10_000, 2000),
            tuiSeconds: quick ? 0.5 : 4,
            streamEvents: int("BENCH_STREAM_EVENTS", 10_000, 200),
            busEvents: int("BENCH_BUS_EVENTS", 600_000, 6000),
            busRuns: int("BENCH_BUS_RUNS", 3, 1),
            cases: (env["BENCH_CASES"] ?? "replay,parse,run,single,download,proxy,proxy-h2,attach,tui,bus,scripts").split(separator: ",").map(String.init))
    }

    var summary: String {
        "\(replayRequests) requests × \(replayRuns) runs per replay figure, \(longRunRequests) requests × \(longRuns) runs per long-run figure, "
            + "\(singleRuns) single GETs, "
            + "\(largeFileMB) MB × \(downloadRuns) downloads, TUI over \(tuiTasks) (and \(tuiMillionTasks)) tasks at \(tuiEventsPerSecond) events/s "
            + "for \(tuiSeconds) s, \(busEvents) bus events × \(busRuns); medians (lowest–highest of the runs)\(quick ? " (BENCH_QUICK: smoke sizes, figures meaningless)" : "")"
    }
}

/// Where the binaries are: next to this one (`.build/release/`).
enum Binaries {
    static var directory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (exe as NSString).deletingLastPathComponent
    }
    static var reqtop: String { directory + "/reqtop" }
    /// `hey` (Debian's package: a load generator, a peer reported beside curl with no target), nil when not installed.
    static var hey: String? {
        ["/usr/bin/hey", "/usr/local/bin/hey"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static var bench: String { directory + "/reqtop-bench" }
}
