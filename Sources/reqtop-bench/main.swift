import Foundation
#if canImport(Glibc)
import Glibc
#endif

// reqtop-bench                          run the cases in BENCH_CASES against REQTOP_NGINX_URL, print the table,
//                                       write bench-results.json (BENCH_OUTPUT overrides the path)
// reqtop-bench download URL DEST        child: one download task, prints `bytes seconds peakRSS`
// reqtop-bench tui-memory N             child: RSS before/after a TaskStore takes N finished tasks
// reqtop-bench tui-table N [--no-save]  child: sort, filter and a background HAR save over N finished tasks
// reqtop-bench engine URL N C           the in-process engine case alone (for profilers: valgrind --tool=callgrind)
// reqtop-bench parse FILE RUNS          child: median seconds to parse FILE and to validate it, then min, median and max of both together and the runs
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "download" where arguments.count == 3:
    exit(DownloadChild.main(url: arguments[1], destination: arguments[2]))
case "tui-memory" where arguments.count == 2:
    exit(TUIMemoryChild.main(count: Int(arguments[1]) ?? 100_000))
case "tui-table" where arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--no-save"):
    exit(TUITableChild.main(count: Int(arguments[1]) ?? 100_000, save: arguments.count == 2))
case "engine" where arguments.count == 4:
    guard let url = URL(string: arguments[1]), let count = Int(arguments[2]), let concurrency = Int(arguments[3]) else { exit(2) }
    let sample = EngineClient.run(url: url, count: count, concurrency: concurrency)
    print("\(Figure.rate(sample.requestsPerSecond)), \(Figure.micros(sample.cpuPerRequest)) CPU/request, \(sample.errors) errors")
    exit(sample.errors == 0 ? 0 : 1)
case "parse" where arguments.count == 3:
    exit(ParseChild.main(path: arguments[1], runs: Int(arguments[2]) ?? 5))
case nil:
    exit(BenchRun.main())
default:
    log("usage: reqtop-bench | reqtop-bench download URL DEST | reqtop-bench tui-memory N | reqtop-bench engine URL N C")
    exit(2)
}
