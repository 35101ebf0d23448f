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
        // Split on bytes ("\r\n" is one Character), as slices of `text`: no string per line.
        let bytes = text.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        func addLine(upTo end: String.Index) {
            var end = end
            if end > start, bytes[bytes.index(before: end)] == 0x0D { end = bytes.index(before: end) }
            lines.append(text[start..<end])
        }
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                addLine(upTo: index)
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        addLine(upTo: bytes.endIndex)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3 else { return nil }
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let rest = line.utf8[line.utf8.index(after: colon)...]
            let valueStart = rest.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? rest.endIndex
            headers.append(HTTPHeader(name: String(line[..<colon]), value: String(line[valueStart...])))
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
