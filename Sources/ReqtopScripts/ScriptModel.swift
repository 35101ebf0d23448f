import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel

/// A script's text and where it is written (`file:line:col` of its first character), which its
/// errors are located from.
public struct Script: Sendable, Hashable {
    public var source: String
    public var file: String
    public var line: Int
    public var column: Int

    public init(source: String, file: String, line: Int, column: Int) {
        self.source = source
        self.file = file
        self.line = line
        self.column = column
    }
}

/// What a script may read: the request (raw and substituted), the environment's values and,
/// for a response handler, the response.
public struct ScriptInput: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var rawURL: String
        public var url: String
        /// Each header: name, value as written, value substituted.
        public var headers: [(name: String, raw: String, value: String)]
        public var rawBody: String
        public var body: String

        public init(method: String, rawURL: String, url: String, headers: [(name: String, raw: String, value: String)], rawBody: String, body: String) {
            self.method = method
            self.rawURL = rawURL
            self.url = url
            self.headers = headers
            self.rawBody = rawBody
            self.body = body
        }
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [HTTPHeader]
        /// The body as text (nil when there was none, or it was not kept).
        public var body: String?

        public init(status: Int, headers: [HTTPHeader], body: String?) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    public var request: Request?
    public var response: Response?
    public var environment: [String: String]

    public init(request: Request?, response: Response? = nil, environment: [String: String] = [:]) {
        self.request = request
        self.response = response
        self.environment = environment
    }

    /// The input as the prelude's `__reqtop.begin` reads it (written by hand: `JSONSerialization`
    /// was most of a handler's cost).
    var json: String {
        var out: [UInt8] = []
        out.reserveCapacity(256 + (response?.body?.utf8.count ?? 0))
        func string(_ text: String) { JSONEscaping.appendQuoted(text, to: &out) }
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        /// Header fields as `[[name, …], …]`.
        func list(_ rows: [[String]]) {
            raw("[")
            for (index, row) in rows.enumerated() {
                raw(index > 0 ? ",[" : "[")
                for (column, text) in row.enumerated() {
                    if column > 0 { raw(",") }
                    string(text)
                }
                raw("]")
            }
            raw("]")
        }
        raw(#"{"environment":{"#)
        for (index, (name, value)) in environment.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { raw(",") }
            string(name)
            raw(":")
            string(value)
        }
        raw("}")
        if let request {
            raw(#","request":{"method":"#)
            string(request.method)
            raw(#","url":{"raw":"#)
            string(request.rawURL)
            raw(#","substituted":"#)
            string(request.url)
            raw(#"},"headers":"#)
            list(request.headers.map { [$0.name, $0.raw, $0.value] })
            raw(#","body":{"raw":"#)
            string(request.rawBody)
            raw(#","substituted":"#)
            string(request.body)
            raw("}}")
        }
        if let response {
            raw(#","response":{"status":\#(response.status),"headers":"#)
            list(response.headers.map { [$0.name, $0.value] })
            raw(#","body":"#)
            if let body = response.body { string(body) } else { raw("null") }
            raw("}")
        }
        raw("}")
        return String(decoding: out, as: UTF8.self)
    }
}

/// A script that threw, did not parse or ran out of time, located in its file.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var file: String
    public var line: Int
    public var column: Int
    /// It was stopped by the time limit.
    public var timedOut = false

    public init(message: String, file: String, line: Int, column: Int, timedOut: Bool = false) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.timedOut = timedOut
    }

    public var description: String { "\(file.lastPathComponent):\(line):\(column): \(message)" }
}

/// What a script did.
public struct ScriptOutcome: Sendable {
    public var tests: [TestResult] = []
    public var logs: [String] = []
    /// `request.variables.set` (a pre-request script's, for its own request only).
    public var requestVariables: [String: String] = [:]
    /// `client.exit()` was called.
    public var exited = false
    /// The run's global variables after the script (`client.global`).
    public var globals: [String: String] = [:]
    /// Header fields a pre-request script added to its request (Postman's `pm.request.headers.add`).
    public var addedHeaders: [HTTPHeader] = []
    public var error: ScriptError?

    public init(tests: [TestResult] = [], logs: [String] = [], requestVariables: [String: String] = [:], exited: Bool = false, error: ScriptError? = nil) {
        self.tests = tests
        self.logs = logs
        self.requestVariables = requestVariables
        self.exited = exited
        self.error = error
    }

    init(json: String) {
        guard let object = try? JSONParser.parse(json) else { return }
        func strings(_ value: JSONValue?) -> [String: String] {
            guard case .object(let members)? = value else { return [:] }
            return Dictionary(members.compactMap { member in member.value.stringValue.map { (member.key, $0) } }, uniquingKeysWith: { $1 })
        }
        if case .array(let results)? = object["results"] {
            tests = results.map { result in
                TestResult(name: result["name"]?.stringValue ?? "?", passed: result["passed"] == .bool(true), message: result["message"]?.stringValue)
            }
        }
        if case .array(let lines)? = object["logs"] { logs = lines.compactMap(\.stringValue) }
        requestVariables = strings(object["requestVariables"])
        exited = object["exit"] == .bool(true)
        globals = strings(object["globals"])
        if case .array(let pairs)? = object["addedHeaders"] {
            addedHeaders = pairs.compactMap { pair in
                guard case .array(let parts) = pair, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue
                else { return nil }
                return HTTPHeader(name: name, value: value)
            }
        }
    }
}
