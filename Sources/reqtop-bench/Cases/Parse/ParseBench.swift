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
            guard outcome.status == 0, fields.count == 6 else { throw BenchProcess.Failure(description: "parse child: \(outcome.output)") }
            let (parse, validate) = (fields[0], fields[1])
            let totals = Spread(min: fields[2], median: fields[3], max: fields[4], runs: Int(fields[5]))
            let total = totals.median
            perRequest[size] = total / Double(size)
            log("parse \(size): parse \(Figure.millis(parse)), validate \(Figure.millis(validate))")
            rows.append(BenchRow("parse + validate a \(size)-request .http (in process)", reqtop: Figure.spread(totals, Figure.millis),
                                 peers: "parse \(Figure.millis(parse)) · validate \(Figure.millis(validate))",
                                 target: "≤ \(Figure.millis(goal))", met: settings.quick ? nil : total <= goal,
                                 values: ["parse_s": parse, "validate_s": validate, "requests": Double(size)]))
        }
        rows += try formats()
        return rows
    }

    /// Hurl and Postman lists of N and 2N requests (each with a header, a JSON body; the Hurl
    /// entries with a capture and two asserts): reading them must grow linearly (2× the input,
    /// at most 2.2× the time).
    private func formats() throws -> [BenchRow] {
        var rows: [BenchRow] = []
        let base = settings.quick ? 200 : 10_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-bench-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in ["hurl", "postman"] {
            var seconds: [Double] = []
            for count in [base, 2 * base] {
                let file = directory.appendingPathComponent(format == "hurl" ? "list-\(count).hurl" : "list-\(count).postman_collection.json")
                try Data(Self.list(format, count: count).utf8).write(to: file)
                let outcome = try BenchProcess.run([Binaries.bench, "parse", file.path, "\(settings.quick ? 3 : 7)"], captureOutput: true, timeout: 300)
                let fields = outcome.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard outcome.status == 0, fields.count == 6 else { throw BenchProcess.Failure(description: "parse child: \(outcome.output)") }
                seconds.append(fields[3])
                log("parse \(format) \(count): \(Figure.millis(fields[3])) (\(Figure.millis(fields[2]))–\(Figure.millis(fields[4])))")
            }
            let ratio = seconds[1] / max(seconds[0], 1e-9)
            rows.append(BenchRow("read + validate a \(base) → \(2 * base)-request \(format == "hurl" ? "Hurl file" : "Postman collection")",
                                 reqtop: String(format: "×%.2f", ratio),
                                 peers: "\(Figure.millis(seconds[0])) → \(Figure.millis(seconds[1]))", target: "≤ ×2.2",
                                 met: settings.quick ? nil : ratio <= 2.2, values: ["ratio": ratio, "small_s": seconds[0], "large_s": seconds[1]]))
        }
        return rows
    }

    static func list(_ format: String, count: Int) -> String {
        if format == "hurl" {
            return (0..<count).map { i in
                "POST http://127.0.0.1:9/items/\(i)\nX-Id: \(i)\n{\"id\": \(i), \"name\": \"item \(i)\"}\nHTTP 200\n[Captures]\n"
                    + "id\(i % 10): jsonpath \"$.id\"\n[Asserts]\njsonpath \"$.ok\" == true\nheader \"Content-Type\" contains \"json\"\n\n"
            }.joined()
        }
        let items = (0..<count).map { i in
            #"{"name": "r\#(i)", "request": {"method": "POST", "url": {"raw": "http://127.0.0.1:9/items/\#(i)"}, "#
                + #""header": [{"key": "X-Id", "value": "\#(i)"}], "body": {"mode": "raw", "raw": "{\"id\": \#(i)}"}}}"#
        }
        return #"{"info": {"name": "big", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + items.joined(separator: ",") + "]}"
    }
}

/// The child: median wall time of parsing `path` and of validating the parsed list, `runs` times each,
/// and the spread of the two together.
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
        // Medians of each step, then the lowest, median and highest whole time, and the runs.
        let totals = Spread(zip(parse, validate).map { $0 + $1 })
        print(Stats.median(parse), Stats.median(validate), totals.min, totals.median, totals.max, totals.runs)
        return 0
    }
}
