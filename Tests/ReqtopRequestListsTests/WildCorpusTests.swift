import Foundation
import ReqtopRequestLists
import XCTest

/// The wild corpus against request lists written by hand from each format's rules
/// (`Fixtures/Wild/expected/<file>.json`): every request reqtop resolves must be the one the
/// file's author meant — method, URL, header fields in order, body.
///
/// An expectation file: `{"environment": "dev" | null, "variables": {…}, "requests": [{"method",
/// "url", "headers": [[name, value]], "body": text | null, "notSent": false}]}`; `{{DYNAMIC}}` in an
/// expected string stands for a value a dynamic variable generates.
final class WildCorpusTests: XCTestCase {
    private struct Expectation: Decodable {
        struct Request: Decodable {
            var method: String?
            var url: String?
            var headers: [[String]]?
            var body: String?
            var notSent: Bool?
        }
        var environment: String?
        var variables: [String: String]?
        var requests: [Request]
    }

    private static let wild = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild")

    /// `expected` with each `{{DYNAMIC}}` matching any non-empty text.
    private func matches(_ actual: String, _ expected: String) -> Bool {
        guard expected.contains("{{DYNAMIC}}") else { return actual == expected }
        let pattern = "^" + expected.components(separatedBy: "{{DYNAMIC}}").map(NSRegularExpression.escapedPattern).joined(separator: ".+?") + "$"
        return actual.range(of: pattern, options: .regularExpression) != nil
    }

    func testEveryHandWrittenExpectationHolds() throws {
        let expectedDirectory = (Self.wild as NSString).appendingPathComponent("expected")
        let files = (FileManager.default.enumerator(atPath: expectedDirectory)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }
        var checked = 0
        var failures: [String] = []
        for file in files.sorted() {
            let source = (Self.wild as NSString).appendingPathComponent(String(file.dropLast(".json".count)))
            let expectation = try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: URL(fileURLWithPath: (expectedDirectory as NSString).appendingPathComponent(file))))
            let list = try RequestListLoader.load(path: source)
            let variables = try VariableContext.load(besides: source, environmentName: expectation.environment,
                                                     commandLine: expectation.variables ?? [:])
            let resolver = RequestResolver(list: list, variables: variables)
            try resolver.validate()
            guard list.specs.count == expectation.requests.count else {
                failures.append("\(file): \(list.specs.count) requests, expected \(expectation.requests.count)")
                continue
            }
            for (index, expected) in expectation.requests.enumerated() {
                let label = "\(file) #\(index + 1)"
                let request: HTTPRequest
                do {
                    request = try resolver.resolve(index)
                } catch {
                    if expected.notSent != true { failures.append("\(label): not sent: \(error.message)") }
                    continue
                }
                if expected.notSent == true { failures.append("\(label): sent, expected not sent"); continue }
                if let method = expected.method, request.method != method { failures.append("\(label): method \(request.method), expected \(method)") }
                if let url = expected.url, !matches(request.url.absoluteString, url) {
                    failures.append("\(label): url \(request.url.absoluteString), expected \(url)")
                }
                if let headers = expected.headers {
                    let actual = request.headers.map { [$0.name, $0.value] }
                    if actual.count != headers.count || !zip(actual, headers).allSatisfy({ $0[0] == $1[0] && matches($0[1], $1[1]) }) {
                        failures.append("\(label): headers \(actual), expected \(headers)")
                    }
                }
                let body = request.body.data.map { String(decoding: $0, as: UTF8.self) }
                if let expectedBody = expected.body {
                    if body == nil || !matches(body!, expectedBody) { failures.append("\(label): body \(body ?? "none"), expected \(expectedBody)") }
                } else if let body, !body.isEmpty {
                    failures.append("\(label): body \(body), expected none")
                }
                checked += 1
            }
        }
        print("wild corpus: \(files.count) files with hand-written expectations, \(checked) requests checked, \(failures.count) differences")
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }
}
