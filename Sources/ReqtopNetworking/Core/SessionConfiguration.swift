import Dispatch

/// Settings shared by every task of a `SessionManager`.
public struct SessionConfiguration: Sendable {
    /// Which HTTP version to ask for.
    public enum HTTPVersion: Sendable {
        /// HTTP/2 over TLS where the server offers it, HTTP/1.1 otherwise (libcurl's default).
        case automatic
        case http1_1
        /// HTTP/2 for TLS and cleartext (prior knowledge is not assumed: h2c upgrade).
        case http2
        /// HTTP/2 from the first byte, over cleartext too (`--http2-prior-knowledge`).
        case http2PriorKnowledge

        /// The session's setting for a request that asks for `version`.
        public init(_ version: HTTPRequest.HTTPVersion) {
            switch version {
            case .http1_1: self = .http1_1
            case .http2: self = .http2
            case .http2PriorKnowledge: self = .http2PriorKnowledge
            }
        }
    }

    /// Where requests go through.
    public enum Proxy: Sendable, Hashable {
        /// `http_proxy`, `https_proxy`, `no_proxy` from the environment (libcurl's behaviour).
        case environment
        case none
        case url(String)
    }

    /// Whole-request timeout in seconds (fractions honoured); nil for none.
    public var requestTimeout: Double? = nil
    /// Connect timeout in seconds (fractions honoured).
    public var connectTimeout: Double = 10
    /// A transfer that receives less than one byte a second for this many seconds fails with
    /// `timedOut` (a stalled server); nil for no limit. A suspended task is not timed.
    public var idleTimeout: Double? = 30
    /// At most this many transfers run at once; the rest wait in order.
    public var maxConcurrentTasks = 64
    /// At most this many transfers run at once against one host (scheme + host + port).
    public var maxConcurrentTasksPerHost = 64
    public var httpVersion = HTTPVersion.automatic
    /// Skip TLS certificate and host name verification.
    public var insecure = false
    /// A PEM file of CA certificates to trust instead of the system's.
    public var caFile: String? = nil
    public var proxy = Proxy.environment
    /// Keep cookies set by responses and send them on later requests of this session.
    public var cookies = true
    /// Ask for compressed bodies (gzip, deflate, br, zstd as libcurl supports) and decode them,
    /// for requests whose `options.compressed` is nil.
    public var compression = true
    /// The `User-Agent` sent when a request has none; nil sends none.
    public var userAgent: String? = "reqtop/\(ReqtopVersion.string)"
    /// A data task keeps at most this many body bytes in memory, then spills the body to a temp file.
    public var maxBodyBytesInMemory = 8 << 20
    /// While a task runs, a copy of the first this-many body bytes is kept for
    /// `HTTPTask.bodyReceivedSoFar` (a live view of a body as it arrives); 0 keeps none.
    public var liveBodyPreviewBytes = 0
    /// A body spilled to a temporary file may grow to this many bytes; past it the task fails
    /// with `bodyTooLarge` (an endless body must not fill the disk). A download task's file has no
    /// such limit: its size is what the caller asked for.
    public var maxSpilledBodyBytes: Int64 = 1 << 30
    /// A compressed body whose decoded size passes this many times what arrived (once past 64 MB)
    /// fails with `bodyTooLarge`: a compression bomb is refused before it fills memory or disk
    /// (real text compresses 5–20×, repetitive JSON up to ~100×; deflate's ceiling is ~1030×).
    /// nil for no limit.
    public var maxDecodedRatio: Double? = 200
    /// A response whose `Content-Type` makes it a stream of messages — `text/event-stream`, NDJSON,
    /// a JSON array sent without `Content-Length` (`StreamMessage.format`) — is also split into
    /// `message` events as it arrives, each keeping at most this many bytes of its data (the body
    /// itself is kept as for any response). nil: not split.
    public var keptStreamMessageBytes: Int? = 256 << 10
    /// The identifier of the first task (later ones count up): above a saved session's tasks when
    /// new ones join it.
    public var firstTaskID = 1
    /// Follow redirects, at most `maxRedirects` hops.
    public var followRedirects = true
    public var maxRedirects = 10
    /// Which responses count as success; a response outside it fails with `validationFailed`.
    public var validation = ResponseValidation()
    /// Where completion handlers and progress handlers run.
    public var completionQueue = DispatchQueue(label: "reqtop.completion")

    public init() {}
}

/// What a task is, beyond its request: a name for observers and which responses count as success.
/// (Per-request settings — timeout, redirects, TLS, compression — are `HTTPRequest.Options`.)
public struct TaskOptions: Sendable {
    public var name: String?
    public var validation: ResponseValidation?
    /// The completion handler is short and never blocks or waits for the engine: it runs on the
    /// engine thread as soon as the transfer ends, with no hand-off to the completion queue (when
    /// the serializer does not read the body; one that does still runs off the engine thread).
    /// For the request-list runner, whose handler records the result and hands over the next request.
    package var completesOnEngineThread = false

    public init(name: String? = nil, validation: ResponseValidation? = nil) {
        self.name = name
        self.validation = validation
    }
}

/// Which responses are acceptable. The default accepts every HTTP status.
public struct ResponseValidation: Sendable, Hashable {
    public var acceptableStatusCodes: Set<Int>?
    /// Media types such as `application/json` or `text/*`.
    public var acceptableContentTypes: Set<String>?

    public init(acceptableStatusCodes: Set<Int>? = nil, acceptableContentTypes: Set<String>? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Accepts 200–299 only.
    public static let successfulStatus = ResponseValidation(acceptableStatusCodes: Set(200..<300))

    func validate(_ head: HTTPResponseHead) -> TransferError? {
        if let codes = acceptableStatusCodes, !codes.contains(head.status) {
            return TransferError(code: .validationFailed, message: "unacceptable status code \(head.status)")
        }
        if let types = acceptableContentTypes {
            let mime = head.mimeType ?? ""
            let ok = types.contains { pattern in
                if pattern.hasSuffix("/*") { return mime.hasPrefix(pattern.dropLast()) }
                return pattern == mime
            }
            if !ok {
                return TransferError(code: .validationFailed, message: "unacceptable content type \(mime.isEmpty ? "(none)" : mime)")
            }
        }
        return nil
    }
}
