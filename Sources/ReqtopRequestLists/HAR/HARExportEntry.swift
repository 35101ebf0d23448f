import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One finished task, as HAR export needs it. A plain value: no networking types.
public struct HARExportEntry: Sendable, Hashable {
    public struct Request: Sendable, Hashable {
        public var method: String
        public var url: String
        public var httpVersion: String
        public var headers: [HTTPHeader]
        public var body: Data?
        /// Bytes of the head as sent, or -1 when unknown.
        public var headersSize: Int
        public init(method: String, url: String, httpVersion: String = "HTTP/1.1", headers: [HTTPHeader], body: Data? = nil,
                    headersSize: Int = -1) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.headers = headers
            self.body = body
            self.headersSize = headersSize
        }
    }

    public struct Response: Sendable, Hashable {
        public var status: Int
        public var statusText: String
        public var httpVersion: String
        public var headers: [HTTPHeader]
        /// Decoded body size in bytes.
        public var bodySize: Int
        public var mimeType: String
        /// The body, when it should be embedded; written as text if UTF-8, else base64.
        public var body: Data?
        /// Bytes of the head as received, or -1 when unknown.
        public var headersSize: Int
        public init(status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1", headers: [HTTPHeader],
                    bodySize: Int, mimeType: String, body: Data? = nil, headersSize: Int = -1) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.headers = headers
            self.bodySize = bodySize
            self.mimeType = mimeType
            self.body = body
            self.headersSize = headersSize
        }
    }

    public var startedDateTime: Date
    public var request: Request
    public var response: Response
    public var timings: HARTimings
    /// Total time in ms; defaults to `timings.total`.
    public var time: Double
    public var serverIPAddress: String?
    /// HAR's `connection`: the client port of the TCP connection (entries that share it shared the connection).
    public var connection: String?
    /// HAR's free-text `comment`: what this entry leaves out and why.
    public var comment: String?
    /// Why the task failed or was cancelled after its response began (`_error` in the HAR), or nil.
    public var error: String?
    /// What the request list's scripts checked of this response (`_tests` in the HAR).
    public var tests: [TestResult] = []
    /// A streamed response's messages with the time each arrived (seconds since 1970), as
    /// `_streamMessages` in the HAR, shaped as Chrome's `_webSocketMessages`.
    public var streamMessages: [TimedStreamMessage] = []

    /// One message of a streamed response and when it arrived.
    public struct TimedStreamMessage: Sendable, Hashable {
        public var time: Double
        public var message: StreamMessage
        public init(time: Double, message: StreamMessage) {
            self.time = time
            self.message = message
        }
    }

    public init(startedDateTime: Date, request: Request, response: Response, timings: HARTimings,
                time: Double? = nil, serverIPAddress: String? = nil, comment: String? = nil, error: String? = nil) {
        self.startedDateTime = startedDateTime
        self.request = request
        self.response = response
        self.timings = timings
        self.time = time ?? timings.total
        self.serverIPAddress = serverIPAddress
        self.comment = comment
        self.error = error
    }

    /// An entry for a request that was resolved but not sent (status 0, no timings). A file body is read.
    public init(unsent request: HTTPRequest, at date: Date = Date()) {
        let body: Data? = switch request.body {
        case .none: nil
        case .data(let data): data
        case .file(let path): FileManager.default.contents(atPath: path)
        }
        self.init(
            startedDateTime: date,
            request: Request(method: request.method, url: request.url.absoluteString, headers: request.headers, body: body),
            response: Response(status: 0, headers: [], bodySize: 0, mimeType: "x-unknown"),
            timings: HARTimings())
    }
}

extension HARExportEntry {
    /// The entry as it may leave the process: URL, headers (and with them cookies) redacted, private
    /// values taken out of the bodies.
    public func redacted(_ redaction: Redaction) -> HARExportEntry {
        // What the request sent as a secret is hidden wherever it comes back (an echoing server's body).
        let redaction = redaction.adding(secretsOf: request.headers, url: request.url)
        var entry = self
        entry.request.url = redaction.url(request.url)
        entry.request.headers = redaction.headers(request.headers)
        if let body = request.body {
            let isForm = request.headers.value(for: "Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
            entry.request.body = isForm ? Data(redaction.query(String(decoding: redaction.body(body), as: UTF8.self)).utf8) : redaction.body(body)
        }
        entry.response.headers = redaction.headers(response.headers)
        entry.response.body = response.body.map(redaction.body)
        for index in entry.streamMessages.indices {
            entry.streamMessages[index].message.data = String(decoding: redaction.body(Data(entry.streamMessages[index].message.data.utf8)), as: UTF8.self)
        }
        return entry
    }
}
