import Foundation

/// An absolute URL kept exactly as written. Foundation's `URL` re-encodes a whole string when one
/// character needs escaping (`?a=%3A&b=[1]` becomes `?a=%253A&b=%5B1%5D`); this type keeps every
/// printable ASCII character as written — `[]|{}"` too, as curl sends them — and percent-encodes
/// only the bytes that cannot appear in a request target at all: controls, space, DEL and
/// non-ASCII (as UTF-8). An existing `%XX` is never touched.
public struct HTTPURL: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The URL text as it is sent (after the minimal escaping above).
    public let absoluteString: String
    /// Lower case, e.g. `http`.
    public let scheme: String
    /// The user-info before `@`, as written (still percent-encoded), or nil.
    public let userInfo: String?
    /// The host as written; an IPv6 literal without its brackets.
    public let host: String
    /// The explicit port, or nil.
    public let port: Int?
    /// The path as written (percent-encoded), "" when the URL has none.
    public let path: String
    /// The query after `?`, as written, or nil.
    public let query: String?
    /// The fragment after `#` (never sent), or nil.
    public let fragment: String?

    /// Parses an absolute `scheme://authority/path?query#fragment` URL; nil if it has no scheme,
    /// no host, or a port that is not a number up to 65535.
    public init?(string text: String) {
        let trimmed = Self.trimmed(text)
        // Indexes are found on the UTF-8 view (they are String indexes too): going Character by
        // Character (grapheme breaking) made URL parsing a quarter of resolving a request list.
        guard let schemeEnd = Self.schemeLength(trimmed) else { return nil }
        let utf8 = trimmed.utf8
        let colon = utf8.index(utf8.startIndex, offsetBy: schemeEnd)
        let scheme = String(trimmed[..<colon])
        let afterScheme = trimmed[utf8.index(after: colon)...]
        guard afterScheme.utf8.starts(with: "//".utf8) else { return nil }
        let rest = afterScheme[afterScheme.utf8.index(afterScheme.startIndex, offsetBy: 2)...]
        let authorityEnd = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        guard let parsed = Self.parseAuthority(authority) else { return nil }
        let tail = Self.escape(String(rest[authorityEnd...]))
        let (path, query, fragment) = Self.splitRelative(tail)
        self.scheme = scheme.lowercased()
        self.userInfo = parsed.userInfo
        self.host = parsed.host
        self.port = parsed.port
        self.path = path
        self.query = query
        self.fragment = fragment
        self.absoluteString = scheme + "://" + authority + tail
    }

    public var description: String { absoluteString }

    /// Path and query as they go in the request line: `/` when the path is empty.
    public var requestTarget: String {
        (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
    }

    /// Host and port as in a `Host` header: the port only when the URL names one; IPv6 in brackets.
    public var authority: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shownHost):\($0)" } ?? shownHost
    }

    /// The port connected to: the explicit one, else 443 for https and 80 otherwise.
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// Whether `other` has the same scheme, host (case-insensitive) and effective port: the origin
    /// that credentials belong to.
    public func hasSameOrigin(as other: HTTPURL) -> Bool {
        scheme == other.scheme && host.lowercased() == other.host.lowercased() && effectivePort == other.effectivePort
    }

    /// Foundation's URL for the same text, when Foundation accepts it unchanged (for file names,
    /// interop); nil otherwise.
    public var foundationURL: URL? { URL(string: absoluteString) }

    /// The scheme of a URL or reference (`file` of `file:///x`), lower case, or nil for a relative reference.
    public static func scheme(of reference: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        return schemeLength(trimmed).map { trimmed.prefix($0).lowercased() }
    }

    /// Resolves a reference (a `Location` header) against this URL as RFC 3986 §5.2 says; a
    /// reference without a fragment keeps this URL's fragment (RFC 9110 §10.2.2). Nil when the
    /// result is not a URL with a host.
    public func resolving(_ reference: String) -> HTTPURL? {
        let ref = Self.escape(reference.trimmingCharacters(in: .whitespaces))
        if Self.schemeLength(ref) != nil { return HTTPURL(string: ref).map { $0.removingDotSegments() } }
        var target: String
        let (refPath, refQuery, refFragment) = Self.splitRelative(ref)
        if ref.hasPrefix("//") {
            return HTTPURL(string: scheme + ":" + ref).map { $0.removingDotSegments() }
        } else if refPath.isEmpty {
            target = (path.isEmpty ? "" : path) + ((refQuery ?? query).map { "?" + $0 } ?? "")
        } else if refPath.hasPrefix("/") {
            target = Self.removeDotSegments(refPath) + (refQuery.map { "?" + $0 } ?? "")
        } else {
            let base = path.isEmpty ? "/" : String(path[...(path.lastIndex(of: "/") ?? path.startIndex)])
            target = Self.removeDotSegments((path.isEmpty ? "/" : base) + refPath) + (refQuery.map { "?" + $0 } ?? "")
        }
        if let fragment = refFragment ?? fragment { target += "#" + fragment }
        let prefix = scheme + "://" + (userInfo.map { $0 + "@" } ?? "") + authority
        return HTTPURL(string: prefix + target)
    }

    // MARK: Codable, as one string

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let url = HTTPURL(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an absolute URL: \(text)"))
        }
        self = url
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(absoluteString)
    }

    // MARK: Parsing helpers

    /// `text` without leading and trailing whitespace and newlines. Most URLs have none: they are
    /// checked on their first and last bytes instead of going through Foundation's bridged trim,
    /// which was a third of a 5000-request dry run.
    private static func trimmed(_ text: String) -> String {
        func isPlain(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? true }
        if isPlain(text.utf8.first), isPlain(text.utf8.last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The length of a leading `scheme` before its `:` (RFC 3986 §3.1), or nil.
    private static func schemeLength(_ text: String) -> Int? {
        var count = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") { return count > 0 ? count : nil }
            let isAlpha = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            guard isAlpha || (count > 0 && isOther) else { return nil }
            count += 1
        }
        return nil
    }

    private static func parseAuthority(_ authority: String) -> (userInfo: String?, host: String, port: Int?)? {
        // On UTF-8 bytes (every delimiter is ASCII; the indexes are the String's).
        var hostPort = Substring(authority)
        var userInfo: String?
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = String(authority[..<at])
            hostPort = authority[authority.utf8.index(after: at)...]
        }
        var host: Substring
        var portText: Substring?
        if hostPort.utf8.first == UInt8(ascii: "[") {
            guard let close = hostPort.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = hostPort[hostPort.utf8.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.utf8.index(after: close)...]
            if !after.isEmpty {
                guard after.utf8.first == UInt8(ascii: ":") else { return nil }
                portText = after[after.utf8.index(after: after.startIndex)...]
            }
        } else if let colon = hostPort.utf8.lastIndex(of: UInt8(ascii: ":")) {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.utf8.index(after: colon)...]
        } else {
            host = hostPort
        }
        guard !host.isEmpty, !host.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) else { return nil }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(portText),
                  number <= 65535 else {
                return nil
            }
            port = number
        }
        return (userInfo, String(host), port)
    }

    /// Path, query (after `?`) and fragment (after `#`) of a path-and-beyond.
    private static func splitRelative(_ ref: String) -> (path: String, query: String?, fragment: String?) {
        var rest = Substring(ref)
        var fragment: String?
        var query: String?
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(rest[rest.utf8.index(after: mark)...])
            rest = rest[..<mark]
        }
        return (String(rest), query, fragment)
    }

    private func removingDotSegments() -> HTTPURL {
        guard path.contains(".") else { return self }
        let prefix = scheme + "://" + (userInfo.map { $0 + "@" } ?? "") + authority
        let text = prefix + Self.removeDotSegments(path) + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
        return HTTPURL(string: text) ?? self
    }

    /// RFC 3986 §5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") { input = input.dropFirst(3); _ = output.popLast() }
            else if input == "/.." { input = "/"; _ = output.popLast() }
            else if input == "." || input == ".." { input = "" }
            else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// Percent-encodes only the bytes that may never appear in a request target; `%` is kept as written.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for byte in text.utf8 {
            if needsEscape(byte) {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F
    }
}

