import Foundation
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

    /// The input as the prelude's `__reqtop.begin` reads it.
    var json: String {
        var object: [String: Any] = ["environment": environment]
        if let request {
            object["request"] = [
                "method": request.method, "url": ["raw": request.rawURL, "substituted": request.url],
                "headers": request.headers.map { [$0.name, $0.raw, $0.value] }, "body": ["raw": request.rawBody, "substituted": request.body],
            ] as [String: Any]
        }
        if let response {
            object["response"] = ["status": response.status, "headers": response.headers.map { [$0.name, $0.value] },
                                  "body": response.body as Any? ?? NSNull()] as [String: Any]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
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

    public var description: String { "\((file as NSString).lastPathComponent):\(line):\(column): \(message)" }
}

/// What a script did.
public struct ScriptOutcome: Sendable {
    public var tests: [TestResult] = []
    public var logs: [String] = []
    /// `request.variables.set` (a pre-request script's, for its own request only).
    public var requestVariables: [String: String] = [:]
    /// `client.exit()` was called.
    public var exited = false
    public var error: ScriptError?

    public init(tests: [TestResult] = [], logs: [String] = [], requestVariables: [String: String] = [:], exited: Bool = false, error: ScriptError? = nil) {
        self.tests = tests
        self.logs = logs
        self.requestVariables = requestVariables
        self.exited = exited
        self.error = error
    }

    init(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return }
        tests = (object["results"] as? [[String: Any]] ?? []).map {
            TestResult(name: $0["name"] as? String ?? "?", passed: $0["passed"] as? Bool ?? false, message: $0["message"] as? String)
        }
        logs = object["logs"] as? [String] ?? []
        requestVariables = object["requestVariables"] as? [String: String] ?? [:]
        exited = object["exit"] as? Bool ?? false
    }
}
