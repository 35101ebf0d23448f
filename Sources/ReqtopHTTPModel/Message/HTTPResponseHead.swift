import FoundationEssentials

/// The status line and header fields of one HTTP response (a redirect's or the final one).
public struct HTTPResponseHead: Sendable, Hashable {
    /// The URL of the request this answers.
    public var url: HTTPURL
    /// e.g. `1.1` or `2`.
    public var httpVersion: String
    public var status: Int
    public var reason: String
    /// In the order received; repeated names (Set-Cookie) stay separate.
    public var headers: [HTTPHeader]
    /// Bytes of the head as received (status line, header lines, CRLFs), or -1 if unknown.
    public var size: Int

    public init(url: HTTPURL, httpVersion: String, status: Int, reason: String, headers: [HTTPHeader], size: Int = -1) {
        self.url = url
        self.httpVersion = httpVersion
        self.status = status
        self.reason = reason
        self.headers = headers
        self.size = size
    }

    /// The media type of `Content-Type`, lowercased, without parameters.
    public var mimeType: String? {
        guard let value = headers.value(for: "Content-Type"), let type = value.split(separator: ";").first else { return nil }
        return type.trimmingOptionalWhitespace.lowercased()
    }

    /// The status line as received, e.g. `HTTP/1.1 200 OK`.
    /// The major HTTP version (`1` for "1.1", `2` for "2"); 1 when the version is not a number.
    public var majorVersion: Int { httpVersion.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 ? Int($0 - 0x30) : 1 } ?? 1 }

    public var statusLine: String { "HTTP/\(httpVersion) \(status)" + (reason.isEmpty ? "" : " \(reason)") }
}
