import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Parses `METHOD URL [HTTP/1.1]` (the method may be omitted: GET). The method is kept exactly as
/// written: any RFC 9110 token (`PROPFIND`, `QUERY`, `wHat`) is a method when a URL follows it.
struct RequestLine {
    var method: String
    var url: String
    /// 0-based character column where the URL starts.
    var urlColumn: Int
    /// Why the line was read more leniently than written, and where: a URL with spaces in it.
    var warning: (message: String, column: Int)?

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// A message and 0-based column on failure.
    struct Invalid: Error {
        var message: String
        var column: Int
    }

    static func parse(_ line: TextLine) throws(Invalid) -> RequestLine {
        // Words are found on the bytes; only the method and the URL become strings.
        let words = Words(line)
        func word(_ index: Int) -> TextLine { line[words[index]] }
        func column(_ index: Int) -> Int { line.characterColumn(ofByte: words[index].lowerBound) }
        guard words.count > 0 else { throw Invalid(message: "expected a request line 'METHOD URL'", column: 0) }
        let first = word(0)
        let usage = "expected a request line 'METHOD URL [HTTP/1.1]'"
        if first == "WEBSOCKET" || first == "GRPC" {
            throw Invalid(message: "\(first.string) requests are not supported by reqtop", column: column(0))
        }
        if first == "fragment", words.count >= 4, word(2) == "on" {
            throw Invalid(message: "a GraphQL fragment outside a request is httpyac syntax; reqtop sends a GRAPHQL request's body as written (put the fragment in it)",
                          column: column(0))
        }
        var index = 0
        var method = "GET"
        if words.count > 1, !first.isEmpty, first.bytes.allSatisfy(HTTPRequest.isTokenByte), !word(1).hasPrefix("HTTP/") {
            method = first.string
            index = 1
        } else if words.count == 1, methods.contains(first.string) {
            throw Invalid(message: "missing URL after \(first.string)", column: column(0) + first.string.count)
        } else if words.count > 1, !word(1).hasPrefix("HTTP/"), looksLikeURL(word(1)) {
            throw Invalid(message: "\(quoting: first.string) is not an HTTP method (a token of letters, digits and !#$%&'*+-.^_`|~)",
                          column: column(0))
        }
        let url = word(index)
        guard looksLikeURL(url) else { throw Invalid(message: "\(quoting: url.string) is not a URL (\(usage))", column: column(index)) }
        if words.count > index + 1 {
            guard word(index + 1).hasPrefix("HTTP/") else {
                let next = word(index + 1)
                if next.hasPrefix("#") || next.hasPrefix("//") {
                    throw Invalid(message: "unexpected \(quoting: next.string) after the URL: a comment goes on a line of its own", column: column(index + 1))
                }
                // Only what is surely a URL goes on past a space (not a line of prose with a colon in it).
                guard url.contains(UInt8(ascii: ":"), UInt8(ascii: "/")) || url.hasPrefix("{{") || url.hasPrefix("/") else {
                    throw Invalid(message: "unexpected \(quoting: next.string) after the URL (encode spaces in URLs as %20)", column: column(index + 1))
                }
                return withSpaces(line, method: method, urlStart: words[index].lowerBound, continuesAt: column(index + 1))
            }
            if words.count > index + 2 {
                throw Invalid(message: "unexpected \(quoting: word(index + 2).string) after the HTTP version", column: column(index + 2))
            }
        }
        return RequestLine(method: method, url: url.string, urlColumn: column(index))
    }

    /// A URL with spaces in it, up to the end of the line or to a last word `HTTP/…`: VS Code REST
    /// Client and httpyac read it so (JetBrains' client flags it), and the spaces go out as `%20`
    /// (`HTTPURL` encodes them), with a warning.
    private static func withSpaces(_ line: TextLine, method: String, urlStart: Int, continuesAt column: Int) -> RequestLine {
        let bytes = line.bytes
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var end = bytes.count
        while end > urlStart, isBlank(bytes[end - 1]) { end -= 1 }
        var lastWord = end
        while lastWord > urlStart, !isBlank(bytes[lastWord - 1]) { lastWord -= 1 }
        if line[lastWord..<end].hasPrefix("HTTP/") {
            end = lastWord
            while end > urlStart, isBlank(bytes[end - 1]) { end -= 1 }
        }
        return RequestLine(method: method, url: line[urlStart..<end].string, urlColumn: line.characterColumn(ofByte: urlStart),
                           warning: ("the URL goes on after a space: it is sent with its blanks percent-encoded (%20)", column))
    }

    static func looksLikeURL(_ word: TextLine) -> Bool {
        // `:` covers "://".
        word.firstIndex(of: UInt8(ascii: ":")) != nil || word.firstIndex(of: UInt8(ascii: ".")) != nil || word.hasPrefix("/")
            || word.hasPrefix("{{") || word.hasPrefix("localhost")
    }

    /// The space- and tab-separated words of a line as byte ranges (`{{ spaced }}` stays inside its
    /// word): the first four, and how many there are. A request line has at most three, so no array.
    struct Words {
        private(set) var count = 0
        private var kept: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)

        init(_ line: TextLine) {
            let bytes = line.bytes
            guard let base = bytes.baseAddress else { return }
            if memchr(base, Int32(UInt8(ascii: "{")), bytes.count) == nil, memchr(base, Int32(UInt8(ascii: "\t")), bytes.count) == nil {
                // No variable and no tab (most lines): the words are between spaces, found with memchr.
                var start = 0
                while start < bytes.count {
                    guard let space = memchr(base + start, Int32(UInt8(ascii: " ")), bytes.count - start) else {
                        append(start..<bytes.count)
                        return
                    }
                    let end = base.distance(to: space.assumingMemoryBound(to: UInt8.self))
                    if end > start { append(start..<end) }
                    start = end + 1
                }
                return
            }
            var start = -1
            var inVariable = false
            var previous: UInt8 = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{") { inVariable = true }
                if byte == UInt8(ascii: "}"), previous == UInt8(ascii: "}") { inVariable = false }
                if (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")), !inVariable {
                    if start >= 0 { append(start..<index) }
                    start = -1
                } else if start < 0 {
                    start = index
                }
                previous = byte
            }
            if start >= 0 { append(start..<bytes.count) }
        }

        private mutating func append(_ range: Range<Int>) {
            switch count {
            case 0: kept.0 = range
            case 1: kept.1 = range
            case 2: kept.2 = range
            case 3: kept.3 = range
            default: break
            }
            count += 1
        }

        /// One of the first four words.
        subscript(index: Int) -> Range<Int> {
            switch index {
            case 0: kept.0
            case 1: kept.1
            case 2: kept.2
            default: kept.3
            }
        }
    }
}
