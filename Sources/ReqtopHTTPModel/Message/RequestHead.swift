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
        var text = text
        guard let head = text.withUTF8({ RequestHead(wireBytes: UnsafeRawBufferPointer($0), url: url, hop: hop) }) else { return nil }
        self = head
    }

    /// `init(wireText:url:hop:)` on the bytes libcurl hands over, without a string for the whole head
    /// or for each line: the engine thread parses every head it sends.
    public init?(wireBytes bytes: UnsafeRawBufferPointer, url: HTTPURL, hop: Int = 0) {
        // Lines end in CRLF (LF accepted); a header value may hold other Unicode line separators.
        func string(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var lineStart = 0
        /// The next line without its line ending, or nil at the end of the bytes.
        func nextLine() -> Range<Int>? {
            guard lineStart < bytes.count else { return nil }
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let next = end + 1
            if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
            defer { lineStart = next }
            return lineStart..<end
        }
        guard let requestLine = nextLine() else { return nil }
        // METHOD SP TARGET SP VERSION: three words separated by runs of spaces.
        var words = (0..<0, 0..<0, 0..<0), wordCount = 0 // no array: this runs for every request sent
        var index = requestLine.lowerBound
        while index < requestLine.upperBound {
            while index < requestLine.upperBound, bytes[index] == 0x20 { index += 1 }
            guard index < requestLine.upperBound else { break }
            let wordStart = index
            while index < requestLine.upperBound, bytes[index] != 0x20 { index += 1 }
            switch wordCount {
            case 0: words.0 = wordStart..<index
            case 1: words.1 = wordStart..<index
            case 2: words.2 = wordStart..<index
            default: return nil
            }
            wordCount += 1
        }
        guard wordCount == 3 else { return nil }
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(8)
        while let line = nextLine() {
            guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) else { continue }
            var valueStart = colon + 1
            while valueStart < line.upperBound, isBlank(bytes[valueStart]) { valueStart += 1 }
            headers.append(HTTPHeader(name: string(line.lowerBound..<colon), value: string(valueStart..<line.upperBound)))
        }
        self.init(url: url, method: string(words.0), target: string(words.1), httpVersion: string(words.2),
                  headers: headers, size: bytes.count, hop: hop)
    }

    /// Whether the head went as an HTTP/2 HEADERS frame (`httpVersion` `HTTP/2`).
    public var isHTTP2: Bool { httpVersion == "HTTP/2" }

    /// The head as HTTP/2 sends it, from the HTTP/1-style text libcurl reports for it: the pseudo-header
    /// fields `:method`, `:path`, `:scheme` and `:authority` (from `Host`) first, in the order libcurl
    /// puts them in the frame, then the other fields with lower-case names and without the fields that
    /// describe an HTTP/1 connection (`Connection`, `Keep-Alive`, `Proxy-Connection`,
    /// `Transfer-Encoding`, `Upgrade`, and `TE` other than `trailers`), which HTTP/2 forbids (RFC 9113
    /// §8.2.2). Its size on the wire is HPACK-compressed and unknown here: −1.
    public func asSentOverHTTP2() -> RequestHead {
        guard isHTTP2, !headers.contains(where: { $0.name.hasPrefix(":") }) else { return self }
        let dropped: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]
        var pseudo = [HTTPHeader(name: ":method", value: method), HTTPHeader(name: ":path", value: target),
                      HTTPHeader(name: ":scheme", value: url.scheme)]
        var rest: [HTTPHeader] = []
        for header in headers {
            let name = header.name.lowercased()
            if name == "host" {
                pseudo.append(HTTPHeader(name: ":authority", value: header.value))
            } else if dropped.contains(name) || (name == "te" && header.value.lowercased() != "trailers") {
                continue
            } else {
                rest.append(HTTPHeader(name: name, value: header.value))
            }
        }
        var head = self
        head.headers = pseudo + rest
        head.size = -1
        return head
    }

    /// The request line: `GET /path HTTP/1.1`.
    public var requestLine: String { "\(method) \(target) \(httpVersion)" }

    /// The head as text lines: request line, then `Name: value` lines.
    public var lines: [String] {
        [requestLine] + headers.map(\.description)
    }
}
