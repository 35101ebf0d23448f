import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// What counts as a secret, and how it is hidden in everything that leaves the process: HAR files,
/// curl, HTTPie and `.http` exports, JSON Lines, the attach stream, the clipboard. Header values of
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and API-key or token headers, URL
/// user-info, query parameters named like a token, key, secret or password, and every value that
/// came from a private environment file become `[redacted]` — keeping what helps to debug
/// (the auth scheme, cookie names and attributes, parameter names).
///
/// A value: what to hide. Whether to hide anything, and the values known to be secret so far, are
/// a `SecretPolicy` the program owns and hands to what writes (`--include-secrets` makes one that
/// does not redact).
public struct Redaction: Sendable {
    public static let marker = "[redacted]"

    /// Private values, longest first (so a value containing another is replaced whole).
    public let values: [String]

    public init<S: Sequence>(values: S) where S.Element == String {
        self.values = Set(values).filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// The secret values a list of exchanges carries — credentials, cookie values (sent and set),
    /// secret header, query and JSON member values — to be registered before an export, so that
    /// a value seen as a secret in one request is hidden wherever else it appears.
    public static func secretValues(headers: [HTTPHeader], url: String, body: Data? = nil) -> [String] {
        var found = Redaction(values: []).adding(secretsOf: headers, url: url).values
        for header in headers where ["set-cookie", "set-cookie2"].contains(header.name.lowercased()) {
            let pair = header.value.split(separator: ";", maxSplits: 1).first ?? ""
            if let equals = pair.firstIndex(of: "=") { found.append(String(pair[pair.index(after: equals)...])) }
        }
        if let body, body.count <= 1 << 20 {
            found += jsonSecretMembers(String(decoding: body, as: UTF8.self)).map(\.value).filter { !$0.containsBytes("{{") }
        }
        return found
    }

    /// `"password": "…"`, `"apiKey": "…"` — JSON string members named like a secret (bodies up to 1 MB).
    static func jsonSecretMembers(_ text: String) -> [(range: Range<String.Index>, value: String)] {
        guard text.utf8.contains(UInt8(ascii: "\"")), text.utf8.contains(UInt8(ascii: ":")) else { return [] }
        var found: [(Range<String.Index>, String)] = []
        // By hand, as the expression `"([A-Za-z0-9_\-]{1,64})"\s*:\s*"((?:[^"\\]|\\.){1,4096})"` matches (leftmost,
        // not overlapping; JSON's blanks between tokens): the name, its colon, its string value.
        let bytes = Array(text.utf8), count = bytes.count
        func isNameByte(_ b: UInt8) -> Bool {
            PercentEncoding.isUnreserved(b) && b != UInt8(ascii: ".") && b != UInt8(ascii: "~")
        }
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        func member(at quote: Int) -> (name: Range<Int>, value: Range<Int>, end: Int)? {
            var i = quote + 1
            while i < count, i - quote - 1 < 65, isNameByte(bytes[i]) { i += 1 }
            let name = (quote + 1)..<i
            guard !name.isEmpty, name.count <= 64, i < count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            while i < count, isBlank(bytes[i]) { i += 1 }
            guard i < count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            while i < count, isBlank(bytes[i]) { i += 1 }
            guard i < count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            let valueStart = i
            var characters = 0
            while i < count, characters <= 4096 {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { break }
                if b == UInt8(ascii: "\\") {
                    // `\\.`: any character but a line break after the backslash.
                    guard i + 1 < count, bytes[i + 1] != 0x0A, bytes[i + 1] != 0x0D else { return nil }
                    i += 2
                } else {
                    i += 1
                }
                while i < count, bytes[i] & 0xC0 == 0x80 { i += 1 } // the rest of a multi-byte character
                characters += 1
            }
            guard characters >= 1, characters <= 4096, i < count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            return (name, valueStart..<i, i + 1)
        }
        func index(_ offset: Int) -> String.Index { text.utf8.index(text.utf8.startIndex, offsetBy: offset) }
        var at = 0
        while at < count {
            guard bytes[at] == UInt8(ascii: "\""), let match = member(at: at) else { at += 1; continue }
            at = match.end
            let name = String(decoding: bytes[match.name], as: UTF8.self)
            let value = index(match.value.lowerBound)..<index(match.value.upperBound)
            guard isSecretParameter(name), !text[value].containsBytes("{{") else { continue }
            found.append((value, String(text[value])))
        }
        return found
    }

    /// This redaction plus the secret values a request carries (credentials, cookie values, secret
    /// query values, user-info), so that an echo of them elsewhere — a response body — is hidden too.
    public func adding(secretsOf headers: [HTTPHeader], url: String) -> Redaction {
        var found = values
        for header in headers where !header.value.containsBytes("{{") {
            let name = header.name.lowercased()
            if name == "cookie" {
                for pair in header.value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { found.append(String(pair[pair.index(after: equals)...])) }
                }
            } else if name == "authorization" || name == "proxy-authorization" {
                found.append(String(header.value.split(separator: " ", maxSplits: 1).last ?? ""))
            } else if name == "set-cookie" || name == "set-cookie2" {
                continue // its value and attributes: `secretValues` takes the value alone
            } else if Self.isSecretHeader(name) {
                found.append(header.value)
            }
        }
        if let question = url.firstIndex(of: "?") {
            for pair in url[url.index(after: question)...].split(separator: "&") {
                guard let equals = pair.firstIndex(of: "="), Self.isSecretParameter(String(pair[..<equals])) else { continue }
                let value = pair[pair.index(after: equals)...]
                if !value.containsBytes("{{") { found.append(String(value)) } // a template's reference names a variable
            }
        }
        return found.count == values.count ? self : Redaction(values: found)
    }

    // MARK: What is secret

    /// Names seen on most responses and requests that never hold a credential: `header(_:)` passes them through.
    private static let commonPlainHeaders: Set<String> = [
        "host", "user-agent", "accept", "accept-encoding", "accept-language", "content-type", "content-length", "content-encoding",
        "transfer-encoding", "connection", "date", "server", "cache-control", "etag", "last-modified", "expires", "vary", "location",
        "age", "pragma", "keep-alive", "x-request-id", "referer", "origin", "if-none-match", "if-modified-since", "range",
        "content-range", "accept-ranges", "x-powered-by", "strict-transport-security", "access-control-allow-origin", "via",
    ]

    /// Header fields whose value is a credential.
    public static func isSecretHeader(_ name: String) -> Bool {
        // An ASCII name (every name on the wire) is looked at in place: this runs for every header of
        // every JSON Lines line, and lowercasing a copy of each name was most of the printer's redaction.
        let ascii = name.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } ? isSecretHeader(bytes: $0) : nil }
        if let ascii, let answer = ascii { return answer }
        // Otherwise Unicode's lowercasing first (the Kelvin sign lowercases to "k").
        return Array(name.lowercased().utf8).withUnsafeBufferPointer(isSecretHeader(bytes:))
    }

    /// `isSecretHeader` on a name's bytes, ignoring ASCII case.
    private static func isSecretHeader(bytes name: UnsafeBufferPointer<UInt8>) -> Bool {
        if credentialHeaders.isWhole(name) { return true }
        if plainPrefixes.starts(name) { return false }
        return secretHeaderWords.occurs(in: name)
    }

    private static let credentialHeaders = NameWords(["authorization", "proxy-authorization", "cookie", "set-cookie", "set-cookie2"])
    private static let secretHeaderWords = NameWords(["api-key", "apikey", "api_key", "token", "secret", "password", "passwd", "session-id",
                                                      "sessionid", "auth-key", "access-key", "private-key", "signature"])
    /// Names that start so describe the content or what is accepted, even with a word above in them.
    private static let plainPrefixes = NameWords(["content-", "accept-"])

    /// Query parameter (and form field) names whose value is a credential.
    public static func isSecretParameter(_ name: some StringProtocol) -> Bool {
        // Percent decoding only for a name that has an escape: this runs for every
        // query parameter of every event line.
        let name = name.utf8.contains(UInt8(ascii: "%")) ? (name.percentDecoded() ?? String(name)).lowercased() : name.asciiLowercased()
        if secretParameterNameList.contains(name) { return true }
        return secretParameterWordList.contains { name.containsBytes($0) }
    }

    // MARK: Hiding it

    /// `header` with its value hidden when it is a credential, or when it contains a private value.
    public func header(_ header: HTTPHeader) -> HTTPHeader {
        var header = header
        let name = header.name.asciiLowercased()
        if Self.commonPlainHeaders.contains(name) && values.isEmpty { return header } // most fields: nothing to look at
        if header.value.containsBytes("{{") { return header } // a template's reference names a variable, it holds no secret
        if name == "cookie" {
            header.value = Self.cookiePairs(header.value, separator: ";").joined(separator: ";")
        } else if name == "set-cookie" || name == "set-cookie2" {
            // name=value; attributes: the value goes, the attributes (Path, Expires, HttpOnly…) stay.
            var parts = header.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            if let first = parts.first { parts[0] = Self.cookiePairs(first, separator: ";").joined() }
            header.value = parts.joined(separator: ";")
        } else if name == "authorization" || name == "proxy-authorization" {
            // The scheme says what kind of credential went (Basic, Bearer, Digest…); the credential does not go.
            let scheme = header.value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            header.value = header.value.containsBytes(" ") ? "\(scheme) \(Self.marker)" : Self.marker
        } else if Self.isSecretHeader(name) {
            header.value = Self.marker
        } else {
            header.value = text(header.value)
        }
        return header
    }

    public func headers(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        // Without private values only credential fields change: a head without one is returned as it is.
        if values.isEmpty, !headers.contains(where: { Self.isSecretHeader($0.name) }) { return headers }
        return headers.map(header)
    }

    /// `url` redacted: the same value when nothing in it is secret (not parsed again).
    private func redacted(_ url: HTTPURL) -> HTTPURL {
        let text = url.absoluteString
        let hidden = self.url(text)
        return hidden == text ? url : HTTPURL(string: hidden) ?? url
    }

    /// A URL with its user-info and secret query values hidden (and any private value).
    public func url(_ text: String) -> String {
        // Most URLs have no user-info and no secret query parameter: looked at on the bytes, returned as they are.
        if values.isEmpty, Self.hasNothingToHide(url: text) { return text }
        var result = text
        // Found on the characters, not with Foundation's `range(of:)`: this runs for every entry of a HAR save.
        if let colon = result.firstIndex(of: ":"), result[colon...].hasBytePrefix("://") {
            let authorityStart = result.index(colon, offsetBy: 3)
            let authorityEnd = result[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? result.endIndex
            if let at = result[authorityStart..<authorityEnd].lastIndex(of: "@") {
                result.replaceSubrange(authorityStart..<at, with: Self.marker)
            }
        }
        if let question = result.firstIndex(of: "?") {
            let fragmentStart = result[question...].firstIndex(of: "#") ?? result.endIndex
            let query = String(result[result.index(after: question)..<fragmentStart])
            let hidden = self.query(query)
            if hidden != query { result.replaceSubrange(result.index(after: question)..<fragmentStart, with: hidden) }
        }
        return self.text(result)
    }

    /// Whether an ASCII URL has neither user-info nor a query parameter named like a credential,
    /// read on its bytes without a copy (this runs for every event line). `false` sends it through
    /// the full redaction, which also decides every case read here as "maybe" (non-ASCII, `%`).
    package static func hasNothingToHide(url text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            let end = bytes.count
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < end,
               bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
                var index = colon + 3
                while index < end, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                    if bytes[index] == UInt8(ascii: "@") { return false }
                    index += 1
                }
            }
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return true }
            let queryEnd = bytes[question...].firstIndex(of: UInt8(ascii: "#")) ?? end
            var pairStart = question + 1
            while pairStart <= queryEnd {
                let pairEnd = bytes[pairStart..<queryEnd].firstIndex(of: UInt8(ascii: "&")) ?? queryEnd
                if let equals = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")),
                   !isPlainParameter(UnsafeBufferPointer(rebasing: bytes[pairStart..<equals])) {
                    return false
                }
                pairStart = pairEnd + 1
            }
            return true
        } ?? false
    }

    /// An ASCII parameter name without escapes that `isSecretParameter` would not call a secret.
    private static func isPlainParameter(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        !name.contains(UInt8(ascii: "%")) && !secretParameterNames.isWhole(name) && !secretParameterWords.occurs(in: name)
    }

    /// Lowercase: names that are secret whole, and words that make a name secret.
    private static let secretParameterNameList = ["key", "sig", "auth", "pwd", "pass", "code_verifier"]
    private static let secretParameterWordList = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "access_key",
                                                  "accesskey", "signature", "sessionid", "session_id", "private_key"]
    private static let secretParameterNames = NameWords(secretParameterNameList)
    private static let secretParameterWords = NameWords(secretParameterWordList)

    /// `a=1&token=x` → `a=1&token=[redacted]` (also form bodies).
    public func query(_ query: String) -> String {
        func isSecret(_ pair: Substring) -> Bool {
            guard let equals = pair.firstIndex(of: "=") else { return false }
            return Self.isSecretParameter(pair[..<equals]) && !pair[equals...].containsBytes("{{")
        }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
        guard pairs.contains(where: isSecret) else { return query } // most queries: returned as they are
        return pairs.map { pair in isSecret(pair) ? pair[...pair.firstIndex(of: "=")!] + Self.marker : String(pair) }.joined(separator: "&")
    }

    /// `text` with every private value replaced.
    public func text(_ text: String) -> String {
        guard !values.isEmpty else { return text }
        var result = text
        for value in values where result.containsBytes(value) { result = result.replacingEvery(value, with: Self.marker) }
        return result
    }

    /// A body with every private value replaced (a body that is not UTF-8 is searched as bytes),
    /// and, up to 1 MB, the values of JSON members named like a secret (`"password": "[redacted]"`).
    public func body(_ data: Data) -> Data {
        var result = data
        if data.count <= 1 << 20, data.contains(UInt8(ascii: ":")) {
            var text = String(decoding: data, as: UTF8.self)
            let members = Self.jsonSecretMembers(text)
            if !members.isEmpty {
                for member in members.reversed() { text.replaceSubrange(member.range, with: Self.marker) }
                result = Data(text.utf8)
            }
        }
        guard !values.isEmpty else { return result }
        for value in values {
            let needle = Array(value.utf8)
            var searchStart = 0
            while let found = ByteSearch.firstOffset(of: needle, in: result, from: searchStart) {
                let start = result.startIndex + found
                result.replaceSubrange(start..<(start + needle.count), with: Data(Self.marker.utf8))
                searchStart = found + Self.marker.utf8.count
            }
        }
        return result
    }

    /// A request as it may be shown outside: URL, headers and body (in memory) redacted.
    public func request(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.url = redacted(request.url)
        request.headers = headers(request.headers)
        if case .data(let data) = request.body {
            let isForm = request.headers.value(for: "Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
            request.body = .data(isForm ? Data(query(String(decoding: body(data), as: UTF8.self)).utf8) : body(data))
        }
        return request
    }

    public func head(_ head: RequestHead) -> RequestHead {
        var head = head
        head.headers = headers(head.headers)
        head.target = url(head.target)
        head.url = redacted(head.url)
        return head
    }

    public func head(_ head: HTTPResponseHead) -> HTTPResponseHead {
        var head = head
        head.headers = headers(head.headers)
        head.url = redacted(head.url)
        return head
    }

    /// `a=1; b=2` → `a=[redacted]; b=[redacted]`.
    private static func cookiePairs(_ text: String, separator: Character) -> [String] {
        text.split(separator: separator, omittingEmptySubsequences: false).map { pair -> String in
            let leading = pair.prefix { $0 == " " }
            let body = pair.dropFirst(leading.count)
            guard let equals = body.firstIndex(of: "=") else { return String(pair) }
            return leading + body[...equals] + marker
        }
    }
}

extension StringProtocol {
    /// Substring search on UTF-8 bytes: the standard library's `contains(_: String)` compares
    /// characters (`"\n"` is not found in `"\r\n"`), and NSString's bridged search made redaction
    /// a fifth of a `--events jsonl` run.
    @inlinable public func containsBytes(_ needle: String) -> Bool {
        needle.isEmpty || ByteSearch.firstOffset(of: needle.utf8, in: utf8) != nil
    }

    func hasBytePrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// `lowercased()` for ASCII text without the Unicode case tables (header names are ASCII);
    /// other text goes through `lowercased()`.
    func asciiLowercased() -> String {
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return lowercased() }
        guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return String(self) }
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// Lowercase ASCII words looked for in a name, ignoring ASCII case. A place in the name is
/// compared with the words only when its letter begins one of them (this runs for every header and
/// query parameter of every event line). The words sit in one buffer: nothing is retained per look.
struct NameWords: Sendable {
    private struct Word: Sendable {
        var first: UInt8
        var start: Int
        var count: Int
    }

    private let letters: [UInt8]
    /// Sorted by first letter; `groups[letter - "a"]` is the range of those that begin with it.
    private let words: [Word]
    private let groups: [Range<Int>]
    /// Bit `letter - "a"` is set when a word begins with that letter.
    private let firstLetters: UInt32

    init(_ list: [String]) {
        var letters: [UInt8] = [], words: [Word] = [], firstLetters: UInt32 = 0
        for word in list.sorted() {
            let bytes = Array(word.utf8)
            precondition(bytes.first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } == true, "\(word): not a lowercase word")
            words.append(Word(first: bytes[0], start: letters.count, count: bytes.count))
            letters += bytes
            firstLetters |= 1 << UInt32(bytes[0] - UInt8(ascii: "a"))
        }
        self.groups = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { letter in
            let start = words.firstIndex { $0.first == letter } ?? 0
            return start..<(words.lastIndex { $0.first == letter }.map { $0 + 1 } ?? 0)
        }
        self.letters = letters
        self.words = words
        self.firstLetters = firstLetters
    }

    @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether a word begins with `letter` (already lowercased).
    @inline(__always) private func begins(_ letter: UInt8) -> Bool {
        letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z") && firstLetters & (1 << UInt32(letter - UInt8(ascii: "a"))) != 0
    }

    /// Whether a word sits in `name` at `offset`: whole (`exactly`), or followed by anything.
    private func wordAt(_ offset: Int, in name: UnsafeBufferPointer<UInt8>, exactly: Bool) -> Bool {
        let letter = Self.lower(name[offset])
        guard begins(letter) else { return false }
        return letters.withUnsafeBufferPointer { letters in
            for word in words[groups[Int(letter - UInt8(ascii: "a"))]] where offset + word.count <= name.count && (!exactly || word.count == name.count) {
                var index = 1
                while index < word.count, Self.lower(name[offset + index]) == letters[word.start + index] { index += 1 }
                if index == word.count { return true }
            }
            return false
        }
    }

    /// `name` is one of the words.
    func isWhole(_ name: UnsafeBufferPointer<UInt8>) -> Bool { !name.isEmpty && wordAt(0, in: name, exactly: true) }

    /// `name` starts with one of the words.
    func starts(_ name: UnsafeBufferPointer<UInt8>) -> Bool { !name.isEmpty && wordAt(0, in: name, exactly: false) }

    /// One of the words occurs somewhere in `name`.
    func occurs(in name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.indices.contains { wordAt($0, in: name, exactly: false) }
    }
}
