/// Parses `METHOD URL [HTTP/1.1]` (the method may be omitted: GET). The method is kept exactly as
/// written: any RFC 9110 token (`PROPFIND`, `QUERY`, `wHat`) is a method when a URL follows it.
struct RequestLine {
    var method: String
    var url: String
    /// 0-based character column where the URL starts.
    var urlColumn: Int

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
    static let unsupportedMethods: Set<String> = ["WEBSOCKET", "GRPC"]

    /// A message and 0-based column on failure.
    struct Invalid: Error {
        var message: String
        var column: Int
    }

    static func parse(_ line: Substring) throws(Invalid) -> RequestLine {
        let tokens = words(line)
        guard let first = tokens.first else { throw Invalid(message: "expected a request line 'METHOD URL'", column: 0) }
        let usage = "expected a request line 'METHOD URL [HTTP/1.1]'"
        if unsupportedMethods.contains(first.text) {
            throw Invalid(message: "\(first.text) requests are not supported by reqtop", column: first.column)
        }
        if first.text == "fragment", tokens.count >= 4, tokens[2].text == "on" {
            throw Invalid(message: "a GraphQL fragment outside a request is httpyac syntax; reqtop sends a GRAPHQL request's body as written (put the fragment in it)",
                          column: first.column)
        }
        var index = 0
        var method = "GET"
        if tokens.count > 1, HTTPRequest.isValidMethod(first.text), !tokens[1].text.hasPrefix("HTTP/") {
            method = first.text
            index = 1
        } else if tokens.count == 1, methods.contains(first.text) {
            throw Invalid(message: "missing URL after \(first.text)", column: first.column + first.text.count)
        } else if tokens.count > 1, !tokens[1].text.hasPrefix("HTTP/"), looksLikeURL(tokens[1].text) {
            throw Invalid(message: "'\(first.text)' is not an HTTP method (a token of letters, digits and !#$%&'*+-.^_`|~)",
                          column: first.column)
        }
        let url = tokens[index]
        guard looksLikeURL(url.text) else { throw Invalid(message: "'\(url.text)' is not a URL (\(usage))", column: url.column) }
        if tokens.count > index + 1 {
            let version = tokens[index + 1]
            guard version.text.hasPrefix("HTTP/") else {
                throw Invalid(message: "unexpected '\(version.text)' after the URL (encode spaces in URLs as %20)", column: version.column)
            }
            if tokens.count > index + 2 {
                let extra = tokens[index + 2]
                throw Invalid(message: "unexpected '\(extra.text)' after the HTTP version", column: extra.column)
            }
        }
        return RequestLine(method: method, url: url.text, urlColumn: url.column)
    }

    static func looksLikeURL(_ text: String) -> Bool {
        // `contains(":")` covers "://"; on the bytes (Foundation's String search is slow).
        text.utf8.contains(UInt8(ascii: ":")) || text.utf8.contains(UInt8(ascii: ".")) || text.hasPrefix("/") || text.hasPrefix("{{")
            || text.hasPrefix("localhost")
    }

    /// Whitespace-separated words with their 0-based columns; `{{ spaced }}` stays inside its word.
    static func words(_ line: Substring) -> [(text: String, column: Int)] {
        if line.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(line) }
        var result: [(String, Int)] = []
        var current = ""
        var start = 0
        var inVariable = false
        var previous: Character?
        for (i, ch) in line.enumerated() {
            defer { previous = ch }
            if ch == "{", previous == "{" { inVariable = true }
            if ch == "}", previous == "}" { inVariable = false }
            if (ch == " " || ch == "\t"), !inVariable {
                if !current.isEmpty { result.append((current, start)); current = "" }
            } else {
                if current.isEmpty { start = i }
                current.append(ch)
            }
        }
        if !current.isEmpty { result.append((current, start)) }
        return result
    }

    /// `words(_:)` for an ASCII line, on the bytes (columns are byte offsets).
    private static func asciiWords(_ line: Substring) -> [(text: String, column: Int)] {
        var result: [(String, Int)] = []
        let bytes = line.utf8
        var start: Substring.Index?
        var inVariable = false
        var previous: UInt8 = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{") { inVariable = true }
            if byte == UInt8(ascii: "}"), previous == UInt8(ascii: "}") { inVariable = false }
            if (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")), !inVariable {
                if let first = start { result.append((String(line[first..<index]), bytes.distance(from: bytes.startIndex, to: first))) }
                start = nil
            } else if start == nil {
                start = index
            }
            previous = byte
            index = bytes.index(after: index)
        }
        if let first = start { result.append((String(line[first...]), bytes.distance(from: bytes.startIndex, to: first))) }
        return result
    }
}
