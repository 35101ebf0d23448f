/// A request head exactly as it went on the wire: request line and header lines in order, as the
/// client library wrote them (including the headers it added: Host, User-Agent, Accept,
/// Content-Length, Cookie from the jar …).
public struct RequestHead: Sendable, Hashable {
    /// The URL this head was sent to (the request line has only the target).
    public var url: HTTPURL
    public var method: String
    /// The request target of the request line, e.g. `/get?a=1`.
    public var target: String
    /// e.g. `HTTP/1.1`.
    public var httpVersion: String
    public var headers: [HTTPHeader]
    /// Bytes of the head on the wire, CRLFs and the blank line included.
    public var size: Int
    /// Which request of its task this is: 0 for the first, n after n redirects.
    public var hop: Int

    public init(url: HTTPURL, method: String, target: String, httpVersion: String, headers: [HTTPHeader], size: Int, hop: Int = 0) {
        self.url = url
        self.method = method
        self.target = target
        self.httpVersion = httpVersion
        self.headers = headers
        self.size = size
        self.hop = hop
    }

    /// Parses a head as libcurl reports it (`CURLINFO_HEADER_OUT`): the request line, header lines,
    /// a blank line, separated by CRLF. Nil if the first line is not `METHOD TARGET VERSION`.
    public init?(wireText text: String, url: HTTPURL, hop: Int = 0) {
        // Lines end in CRLF (LF accepted); a header value may hold other Unicode line separators.
        // Split on bytes: "\r\n" is one Character, and Unicode line separators are not line ends here.
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3 else { return nil }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append(HTTPHeader(name: String(line[..<colon]), value: String(value)))
        }
        self.init(url: url, method: String(parts[0]), target: String(parts[1]), httpVersion: String(parts[2]),
                  headers: headers, size: text.utf8.count, hop: hop)
    }

    /// The request line: `GET /path HTTP/1.1`.
    public var requestLine: String { "\(method) \(target) \(httpVersion)" }

    /// The head as text lines: request line, then `Name: value` lines.
    public var lines: [String] {
        [requestLine] + headers.map(\.description)
    }
}
