import FoundationEssentials

/// What a request list says about a request's response (a Hurl entry's response section): the
/// status line, header fields and body it expects, values it captures into variables for later
/// requests, and explicit asserts. Each check's result is a test named by its text and line; a
/// capture that cannot be taken fails the request (later requests cannot use its value).
public struct ResponseChecks: Sendable, Hashable {
    /// `HTTP 200`, `HTTP/2 *`: the expected version (nil: any) and status (nil: any).
    public struct StatusLine: Sendable, Hashable {
        public var version: String?
        public var status: Int?
        public var text: String
        public var location: SourceLocation
    }

    /// A header line under the status line: one of the response's fields with that name has that value.
    public struct HeaderCheck: Sendable, Hashable {
        public var name: String
        /// A template (`{{variables}}`).
        public var value: String
        public var location: SourceLocation
    }

    /// `name: query filters…`.
    public struct Capture: Sendable, Hashable {
        public var name: String
        public var query: CheckQuery
        public var filters: [CheckFilter]
        public var text: String
        public var location: SourceLocation
    }

    /// `query filters… [not] predicate value`.
    public struct Assertion: Sendable, Hashable {
        public var query: CheckQuery
        public var filters: [CheckFilter]
        public var predicate: CheckPredicate
        public var text: String
        public var location: SourceLocation
    }

    /// The body written after the checks: the response's body is exactly this.
    public struct BodyCheck: Sendable, Hashable {
        public enum Expected: Sendable, Hashable {
            /// JSON text (a template): compared as JSON values.
            case json(String)
            /// Text (a template): compared exactly.
            case text(String)
            /// Bytes (`base64,…;`, `hex,…;`).
            case bytes(Data)
        }
        public var expected: Expected
        public var location: SourceLocation
    }

    public var statusLine: StatusLine?
    public var headers: [HeaderCheck] = []
    public var captures: [Capture] = []
    public var asserts: [Assertion] = []
    public var body: BodyCheck?

    public init() {}

    /// Where the checks start (the status line).
    public var location: SourceLocation? { statusLine?.location ?? captures.first?.location ?? asserts.first?.location }

    /// The variables the captures set.
    public var capturedNames: [String] { captures.map(\.name) }

    /// Whether there is anything to check or capture.
    public var isEmpty: Bool { statusLine == nil && headers.isEmpty && captures.isEmpty && asserts.isEmpty && body == nil }
}

/// The response the checks read.
public struct CheckedResponse: Sendable {
    public var status: Int
    /// `1.1`, `2`…
    public var httpVersion: String
    /// The last URL (after redirects).
    public var url: String
    public var headers: [HTTPHeader]
    public var body: Data
    /// Whole-request time in milliseconds, when known.
    public var durationMilliseconds: Double?

    public init(status: Int, httpVersion: String, url: String, headers: [HTTPHeader], body: Data, durationMilliseconds: Double? = nil) {
        self.status = status
        self.httpVersion = httpVersion
        self.url = url
        self.headers = headers
        self.body = body
        self.durationMilliseconds = durationMilliseconds
    }
}

/// A check that could not be evaluated because of the list, not the response (a `{{variable}}`
/// that does not resolve, a capture that selects nothing), located.
public struct CheckFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation
    public var description: String { "\(location): \(message)" }
}

extension ResponseChecks {
    /// Runs the captures in order; `substitute` resolves `{{variables}}` (seeing earlier captures
    /// through `captured`). Stops at the first capture that cannot be taken.
    public func capture(_ response: CheckedResponse, substitute: (String) throws -> String) -> (values: [(String, CheckValue)], failure: CheckFailure?) {
        withoutActuallyEscaping(substitute) { substitute in capture(response, CheckContext(response: response, substitute: substitute)) }
    }

    private func capture(_ response: CheckedResponse, _ context: CheckContext) -> (values: [(String, CheckValue)], failure: CheckFailure?) {
        var values: [(String, CheckValue)] = []
        for capture in captures {
            do {
                guard let value = try context.value(of: capture.query, filters: capture.filters) else {
                    return (values, CheckFailure(message: "capture \(capture.name): \(capture.query.text) selected nothing", location: capture.location))
                }
                values.append((capture.name, value))
            } catch {
                return (values, CheckFailure(message: "capture \(capture.name): \(error)", location: capture.location))
            }
        }
        return (values, nil)
    }

    /// Every check as a test, in file order: the status line, the header lines, the asserts, the body.
    public func test(_ response: CheckedResponse, substitute: (String) throws -> String) -> [TestResult] {
        withoutActuallyEscaping(substitute) { substitute in test(response, CheckContext(response: response, substitute: substitute)) }
    }

    private func test(_ response: CheckedResponse, _ context: CheckContext) -> [TestResult] {
        let substitute = context.substitute
        var results: [TestResult] = []
        func name(_ text: String, _ location: SourceLocation) -> String { "\(text) (line \(location.line))" }
        if let line = statusLine {
            var problems: [String] = []
            if let version = line.version, !Self.versionMatches(version, response.httpVersion) {
                problems.append("version: actual HTTP/\(response.httpVersion), expected HTTP/\(version)")
            }
            if let status = line.status, status != response.status { problems.append("status: actual \(response.status), expected \(status)") }
            results.append(TestResult(name: name(line.text, line.location), passed: problems.isEmpty,
                                      message: problems.isEmpty ? nil : problems.joined(separator: "; ")))
        }
        for header in headers {
            let label = name("\(header.name): \(header.value)", header.location)
            do {
                let expected = try substitute(header.value)
                let values = response.headers.filter { HTTPHeader.namesMatch($0.name, header.name) }.map(\.value)
                let passed = values.contains(expected)
                results.append(TestResult(name: label, passed: passed, message: passed ? nil
                    : values.isEmpty ? "no \(header.name) header in the response"
                    : "actual: \(values.map { "<\($0)>" }.joined(separator: ", ")), expected: <\(expected)>"))
            } catch {
                results.append(TestResult(name: label, passed: false, message: "\(error)"))
            }
        }
        for assertion in asserts {
            let label = name(assertion.text, assertion.location)
            do {
                let actual = try context.value(of: assertion.query, filters: assertion.filters)
                let failure = try assertion.predicate.check(actual, substitute: substitute)
                results.append(TestResult(name: label, passed: failure == nil, message: failure))
            } catch {
                results.append(TestResult(name: label, passed: false, message: "\(error)"))
            }
        }
        if let body {
            let label = name("body", body.location)
            do {
                let message = try Self.bodyMismatch(body.expected, response.body, substitute: substitute)
                results.append(TestResult(name: label, passed: message == nil, message: message))
            } catch {
                results.append(TestResult(name: label, passed: false, message: "\(error)"))
            }
        }
        return results
    }

    /// `HTTP/2` matches `2` and `2.0`; `HTTP/1.1` matches `1.1`.
    static func versionMatches(_ expected: String, _ actual: String) -> Bool {
        func normal(_ v: String) -> String { v.hasSuffix(".0") && v != "1.0" ? String(v.dropLast(2)) : v }
        return normal(expected) == normal(actual)
    }

    static func bodyMismatch(_ expected: BodyCheck.Expected, _ actual: Data, substitute: (String) throws -> String) throws -> String? {
        let text = String(decoding: actual, as: UTF8.self)
        switch expected {
        case .bytes(let bytes):
            return bytes == actual ? nil : "actual: \(CheckValue.bytes(actual).described), expected: \(CheckValue.bytes(bytes).described)"
        case .text(let template):
            let wanted = try substitute(template)
            return wanted == text ? nil : "actual: \(CheckValue.string(text).described), expected: \(CheckValue.string(wanted).described)"
        case .json(let template):
            let wanted = try substitute(template)
            guard let a = try? JSONParser.parse(text) else { return "the body is not JSON: \(CheckValue.string(text).described)" }
            guard let b = try? JSONParser.parse(wanted) else { return "the expected body is not JSON after substitution" }
            let (actualValue, expectedValue) = (CheckValue(a), CheckValue(b))
            return actualValue == expectedValue ? nil : "actual: \(actualValue.described), expected: \(expectedValue.described)"
        }
    }
}
