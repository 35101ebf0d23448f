import Foundation
import ReqtopRequestLists

/// Parse + validate of a generated `.http` list of N GETs, in a child process of its own
/// (`reqtop-bench parse FILE RUNS`), so one size's allocations do not shape the next one's figure.
struct ParseBench {
    let settings: BenchSettings

    func run() throws -> [BenchRow] {
        let url = settings.nginxURL + "/files/100b.bin"
        var rows: [BenchRow] = []
        var perRequest: [Int: Double] = [:]
        for (count, goal) in [(5000, 0.005), (100_000, 0.100)] {
            let size = settings.quick ? count / 50 : count
            let files = try RequestFiles(url: url, count: size)
            defer { files.remove() }
            let outcome = try BenchProcess.run([Binaries.bench, "parse", files.httpFile, "\(settings.quick ? 3 : 11)"],
                                               captureOutput: true, timeout: 300)
            let fields = outcome.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            guard outcome.status == 0, fields.count == 2 else { throw BenchProcess.Failure(description: "parse child: \(outcome.output)") }
            let (parse, validate) = (fields[0], fields[1])
            let total = parse + validate
            perRequest[size] = total / Double(size)
            log("parse \(size): parse \(Figure.millis(parse)), validate \(Figure.millis(validate))")
            rows.append(BenchRow("parse + validate a \(size)-request .http (in process)", reqtop: Figure.millis(total),
                                 peers: "parse \(Figure.millis(parse)) · validate \(Figure.millis(validate))",
                                 target: "≤ \(Figure.millis(goal))", met: settings.quick ? nil : total <= goal,
                                 values: ["parse_s": parse, "validate_s": validate, "requests": Double(size)]))
        }
        return rows
    }
}

/// The child: median wall time of parsing `path` and of validating the parsed list, `runs` times each.
enum ParseChild {
    static func main(path: String, runs: Int) -> Int32 {
        var parse: [Double] = [], validate: [Double] = []
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            let list: RequestList
            do { list = try RequestListLoader.load(path: path) } catch {
                log("parse: \(error)")
                return 1
            }
            let parsed = DispatchTime.now().uptimeNanoseconds
            do { try RequestResolver(list: list).validate() } catch {
                log("validate: \(error)")
                return 1
            }
            let validated = DispatchTime.now().uptimeNanoseconds
            parse.append(Double(parsed - start) / 1e9)
            validate.append(Double(validated - parsed) / 1e9)
        }
        print(Stats.median(parse), Stats.median(validate))
        return 0
    }
}
