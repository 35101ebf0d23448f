import FoundationEssentials

/// One HTTP request as reqtop sends it: the method exactly as written (any RFC 9110 token), the
/// URL as written, the header fields in order with duplicates kept, the body, and the options of
/// this one request. Request lists resolve to it, `SessionManager` sends it, the inspector keeps
/// it, and replay, edit and every export start from it.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: HTTPURL
    /// In the order they go on the wire; names keep their case.
    public var headers: [HTTPHeader]
    public var body: Body
    public var options: Options

    public init(method: String = "GET", url: HTTPURL, headers: [HTTPHeader] = [], body: Body = .none,
                options: Options = Options()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.options = options
    }

    /// The first value of the header named `name` (case-insensitive).
    public func header(named name: String) -> String? { headers.value(for: name) }

    /// Where the body comes from.
    public enum Body: Sendable, Hashable {
        case none
        case data(Data)
        /// Streamed from a file when sent.
        case file(path: String)

        /// The bytes in memory, or nil for none and for a file body.
        public var data: Data? {
            if case .data(let data) = self { return data }
            return nil
        }

    }

    /// Settings of one request; nil means "the session's default".
    public struct Options: Sendable, Hashable {
        /// Whole-request timeout in seconds (`curl -m`, `# @timeout`).
        public var timeout: Double?
        /// Follow redirects (`curl -L`; `# @no-redirect` sets false).
        public var followRedirects: Bool?
        public var maxRedirects: Int?
        /// Keep `Authorization` and `Cookie` when a redirect goes to another scheme, host or port
        /// (`curl --location-trusted`, `# @trusted-redirects`).
        public var trustedRedirects: Bool?
        /// Skip TLS certificate and host name verification (`curl -k`, `# @insecure`).
        public var insecure: Bool?
        /// Ask for a compressed response and decode it (`curl --compressed`, `# @compressed`).
        public var compressed: Bool?
        /// Header fields the client adds by itself (`Accept`, `User-Agent`, `Host`…) that this request
        /// goes without (`curl -H 'Accept:'`); a field the request sets itself is sent all the same.
        public var omittedHeaders: [String]?
        /// The HTTP version to speak (`curl --http1.1`, `--http2`, `--http2-prior-knowledge`; `# @http2`…);
        /// nil: the session's (HTTP/2 over TLS where the server offers it, else HTTP/1.1, as curl).
        public var httpVersion: HTTPVersion?

        public init(timeout: Double? = nil, followRedirects: Bool? = nil, maxRedirects: Int? = nil,
                    trustedRedirects: Bool? = nil, insecure: Bool? = nil, compressed: Bool? = nil, omittedHeaders: [String]? = nil,
                    httpVersion: HTTPVersion? = nil) {
            self.httpVersion = httpVersion
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.maxRedirects = maxRedirects
            self.trustedRedirects = trustedRedirects
            self.insecure = insecure
            self.compressed = compressed
            self.omittedHeaders = omittedHeaders
        }

        /// Whether the client's own `name` field is left out (`omittedHeaders`, any case).
        public func omits(_ name: String) -> Bool {
            omittedHeaders?.contains { HTTPHeader.namesMatch($0, name) } ?? false
        }
    }

    /// Which HTTP a request asks to speak.
    public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
        /// HTTP/1.1 only (`curl --http1.1`, `# @http1.1`).
        case http1_1 = "1.1"
        /// HTTP/2: over TLS by ALPN, over cleartext by an `Upgrade: h2c` request (`curl --http2`, `# @http2`).
        case http2 = "2"
        /// HTTP/2 from the first byte, without asking, also over cleartext (`curl --http2-prior-knowledge`,
        /// `# @http2-prior-knowledge`).
        case http2PriorKnowledge = "2-prior-knowledge"

        /// The name curl gives its flag, and `.http` its directive: `http1.1`, `http2`, `http2-prior-knowledge`.
        public var flag: String { "http" + rawValue }

        public init?(flag: String) {
            guard flag.hasPrefix("http"), let version = HTTPVersion(rawValue: String(flag.dropFirst(4))) else { return nil }
            self = version
        }
    }

    /// Whether `method` is an RFC 9110 token (`tchar`s only), so it can go on the request line.
    public static func isValidMethod(_ method: String) -> Bool {
        var text = method
        return text.withUTF8 { !$0.isEmpty && $0.allSatisfy(isTokenByte) }
    }

    /// RFC 9110 §5.6.2 `tchar`.
    @inlinable
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
