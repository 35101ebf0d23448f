import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
    /// The explicit port, or nil.
    public let port: Int?
    /// Where the other parts are in `absoluteString`'s UTF-8 (one string, not one per part).
    private let parts: Parts

    /// Byte offsets into `absoluteString`: the user-info ends at `userInfoEnd` (its `@`, or -1
    /// when there is none), the host is `hostStart..<hostEnd` (without IPv6 brackets), the path
    /// starts at `pathStart` and runs to `queryMark` (its `?`) or `fragmentMark` (its `#`), each
    /// -1 when absent.
    private struct Parts: Sendable, Hashable {
        var authorityStart: Int32
        var userInfoEnd: Int32
        var hostStart: Int32
        var hostEnd: Int32
        var pathStart: Int32
        var queryMark: Int32
        var fragmentMark: Int32
    }

    /// The user-info before `@`, as written (still percent-encoded), or nil.
    public var userInfo: String? { parts.userInfoEnd < 0 ? nil : slice(parts.authorityStart, parts.userInfoEnd) }
    /// The host as written; an IPv6 literal without its brackets.
    public var host: String { slice(parts.hostStart, parts.hostEnd) }
    /// The path as written (percent-encoded), "" when the URL has none.
    public var path: String { slice(parts.pathStart, parts.queryMark >= 0 ? parts.queryMark : fragmentEnd) }
    /// The query after `?`, as written, or nil.
    public var query: String? { parts.queryMark < 0 ? nil : slice(parts.queryMark + 1, fragmentEnd) }
    /// The fragment after `#` (never sent), or nil.
    public var fragment: String? {
        parts.fragmentMark < 0 ? nil : slice(parts.fragmentMark + 1, Int32(absoluteString.utf8.count))
    }

    /// Calls `body` with the UTF-8 bytes of `host` and of the path and query as they are written
    /// (`/p?q`, up to the fragment; empty when the URL has neither) — no string made for either:
    /// sorting and filtering many URLs.
    public func withUTF8HostAndPathQuery(_ body: (_ host: UnsafeBufferPointer<UInt8>, _ pathAndQuery: UnsafeBufferPointer<UInt8>) -> Void) {
        var text = absoluteString
        let parts = self.parts, end = Int(fragmentEnd)
        text.withUTF8 { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[Int(parts.hostStart)..<Int(parts.hostEnd)]),
                 UnsafeBufferPointer(rebasing: bytes[Int(parts.pathStart)..<end]))
        }
    }

    /// Where the host and the path with its query are in `absoluteString`'s UTF-8 bytes.
    public var utf8HostAndPathQueryRanges: (host: Range<Int>, pathAndQuery: Range<Int>) {
        (Int(parts.hostStart)..<Int(parts.hostEnd), Int(parts.pathStart)..<Int(fragmentEnd))
    }

    private var fragmentEnd: Int32 { parts.fragmentMark >= 0 ? parts.fragmentMark : Int32(absoluteString.utf8.count) }

    private func slice(_ start: Int32, _ end: Int32) -> String {
        let bytes = absoluteString.utf8
        let from = bytes.index(bytes.startIndex, offsetBy: Int(start))
        return String(Substring(bytes[from..<bytes.index(from, offsetBy: Int(end - start))]))
    }

    /// Parses an absolute `scheme://authority/path?query#fragment` URL; nil if it has no scheme,
    /// no host, or a port that is not a number up to 65535.
    public init?(string text: String) {
        // One pass over the UTF-8 bytes for the delimiters (all ASCII); the parts are offsets into
        // the text, which is kept as it is unless its path needs escaping.
        var text = text
        // Most URLs are written without blanks around them: the first and last bytes tell.
        func isPlain(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? true }
        if !text.withUTF8({ isPlain($0.first) && isPlain($0.last) }) {
            text = text.trimmingWhitespaceAndNewlines()
        }
        guard var found = text.withUTF8({ Self.locateParts($0) }) else { return nil }
        if found.pathNeedsEscaping {
            let start = text.utf8.index(text.startIndex, offsetBy: Int(found.parts.pathStart))
            var escaped = String(text[..<start]) + Self.escape(String(text[start...]))
            guard let again = escaped.withUTF8({ Self.locateParts($0) }) else { return nil }
            found = again
            text = escaped
        }
        absoluteString = text
        scheme = found.scheme
        port = found.port
        parts = found.parts
    }

    /// The delimiters of an absolute URL's bytes and its port, or nil when it is not one.
    private static func locateParts(_ bytes: UnsafeBufferPointer<UInt8>)
        -> (parts: Parts, scheme: String, port: Int?, pathNeedsEscaping: Bool)? {
        guard let schemeEnd = schemeLength(bytes), let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let authorityStart = schemeEnd + 3
        guard authorityStart <= count, bytes[schemeEnd + 1] == UInt8(ascii: "/"), bytes[schemeEnd + 2] == UInt8(ascii: "/")
        else { return nil }
        // The authority: up to the first `/`, `?` or `#`; the user-info up to its last `@`.
        var authorityEnd = authorityStart, userInfoEnd = -1
        while authorityEnd < count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { userInfoEnd = authorityEnd }
            authorityEnd += 1
        }
        // The host: an IPv6 literal in brackets, else up to the last `:`; no spaces or tabs in it.
        var hostStart = userInfoEnd >= 0 ? userInfoEnd + 1 : authorityStart
        var hostEnd = authorityEnd
        var portStart = -1
        if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
            var close = hostStart + 1
            while close < authorityEnd, bytes[close] != UInt8(ascii: "]") { close += 1 }
            guard close < authorityEnd else { return nil }
            if close + 1 < authorityEnd {
                guard bytes[close + 1] == UInt8(ascii: ":") else { return nil }
                portStart = close + 2
            }
            hostStart += 1
            hostEnd = close
        } else {
            for i in hostStart..<authorityEnd where bytes[i] == UInt8(ascii: ":") { portStart = i + 1 }
            if portStart >= 0 { hostEnd = portStart - 1 }
        }
        guard hostEnd > hostStart else { return nil }
        for i in hostStart..<hostEnd where bytes[i] == 0x20 || bytes[i] == 0x09 { return nil }
        var port: Int?
        if portStart >= 0, portStart < authorityEnd {
            guard authorityEnd - portStart <= 5 else { return nil }
            var number = 0
            for i in portStart..<authorityEnd {
                guard bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                number = number * 10 + Int(bytes[i] - 0x30)
            }
            guard number <= 65535 else { return nil }
            port = number
        }
        // The fragment from the first `#`, the query from the first `?` before it (memchr: vectorized).
        func find(_ byte: UInt8, before end: Int) -> Int {
            guard end > authorityEnd, let found = memchr(base + authorityEnd, Int32(byte), end - authorityEnd) else { return -1 }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        let fragmentMark = find(UInt8(ascii: "#"), before: count)
        let queryMark = find(UInt8(ascii: "?"), before: fragmentMark >= 0 ? fragmentMark : count)
        var outside: UInt8 = 0 // a byte outside 0x21...0x7E (written without a branch, so it vectorizes)
        for i in authorityEnd..<count { outside |= (bytes[i] &- 0x21) > 0x5D ? 1 : 0 }
        let scheme: String
        if schemeEnd == 4, memcmp(base, "http", 4) == 0 {
            scheme = "http"
        } else if schemeEnd == 5, memcmp(base, "https", 5) == 0 {
            scheme = "https"
        } else {
            scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<schemeEnd]), as: UTF8.self).lowercased()
        }
        let parts = Parts(
            authorityStart: Int32(authorityStart), userInfoEnd: Int32(userInfoEnd), hostStart: Int32(hostStart),
            hostEnd: Int32(hostEnd), pathStart: Int32(authorityEnd), queryMark: Int32(queryMark),
            fragmentMark: Int32(fragmentMark))
        return (parts, scheme, port, outside != 0)
    }

    public var description: String { absoluteString }

    /// Path and query as they go in the request line: `/` when the path is empty.
    public var requestTarget: String {
        (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
    }

    /// Host and port as in a `Host` header: the port only when the URL names one; IPv6 in brackets.
    public var authority: String {
        let shownHost = host.containsBytes(":") ? "[\(host)]" : host
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
        let trimmed = reference.trimmingWhitespace()
        return schemeLength(trimmed).map { trimmed.prefix($0).lowercased() }
    }

    /// Resolves a reference (a `Location` header) against this URL as RFC 3986 §5.2 says; a
    /// reference without a fragment keeps this URL's fragment (RFC 9110 §10.2.2). Nil when the
    /// result is not a URL with a host.
    public func resolving(_ reference: String) -> HTTPURL? {
        let ref = Self.escape(reference.trimmingWhitespace())
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

    /// The length of a leading `scheme` before its `:` (RFC 3986 §3.1), or nil.
    private static func schemeLength(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { schemeLength($0) }
    }

    private static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 0
        for byte in bytes {
            if byte == UInt8(ascii: ":") { return count > 0 ? count : nil }
            let isAlpha = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            guard isAlpha || (count > 0 && isOther) else { return nil }
            count += 1
        }
        return nil
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
        guard path.containsBytes(".") else { return self }
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

