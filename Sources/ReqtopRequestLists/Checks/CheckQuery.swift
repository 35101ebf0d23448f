import CTLS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a check reads from the response (Hurl's queries). Arguments may hold `{{variables}}`.
public struct CheckQuery: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case status, version, url, body, bytes, sha256, md5, duration
        case header(String)
        /// `cookie "name"` or `cookie "name[Attribute]"`.
        case cookie(String)
        case jsonpath(String)
        case regex(String)
        case variable(String)
    }
    public var kind: Kind
    /// As written.
    public var text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }
}

/// A step applied to a query's value (Hurl's filters).
public enum CheckFilter: Sendable, Hashable {
    case count, first, last, toInt, toFloat, toString, urlDecode, urlEncode, htmlEscape, htmlUnescape
    case base64Decode, base64Encode, base64URLSafeDecode, base64URLSafeEncode, toHex, utf8Decode, utf8Encode
    case nth(Int)
    case regex(String)
    case replace(String, with: String, isRegex: Bool)
    case split(String)
    case decode(String)
    case jsonpath(String)
    /// The value of a URL's query parameter.
    case urlQueryParam(String)
}

/// Something wrong while evaluating a check: said as the test's message.
struct CheckError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The response and variables checks are evaluated against.
struct CheckContext {
    let response: CheckedResponse
    let substitute: (String) throws -> String

    /// The query's value after the filters; nil when it selects nothing.
    func value(of query: CheckQuery, filters: [CheckFilter]) throws -> CheckValue? {
        guard var value = try evaluate(query) else { return nil }
        for filter in filters {
            value = try apply(filter, to: value)
        }
        return value
    }

    var bodyText: String {
        let type = response.headers.value(for: "Content-Type")?.lowercased() ?? ""
        if type.containsBytes("charset=iso-8859-1") || type.containsBytes("charset=latin1") || type.containsBytes("charset=windows-1252") {
            return String(data: response.body, encoding: .isoLatin1) ?? String(decoding: response.body, as: UTF8.self)
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    func evaluate(_ query: CheckQuery) throws -> CheckValue? {
        switch query.kind {
        case .status: return .integer(response.status)
        case .version: return .string(response.httpVersion)
        case .url: return .string(response.url)
        case .body: return .string(bodyText)
        case .bytes: return .bytes(response.body)
        case .sha256: return .bytes(try Digest.compute("sha256", response.body))
        case .md5: return .bytes(try Digest.compute("md5", response.body))
        case .duration:
            guard let ms = response.durationMilliseconds else { return nil }
            return .integer(Int(ms.rounded()))
        case .header(let name):
            let name = try substitute(name)
            let values = response.headers.filter { HTTPHeader.namesMatch($0.name, name) }.map { CheckValue.string($0.value) }
            return values.isEmpty ? nil : values.count == 1 ? values[0] : .list(values)
        case .cookie(let spec):
            return try cookie(try substitute(spec))
        case .jsonpath(let path):
            return try jsonpath(try substitute(path), in: bodyText)
        case .regex(let pattern):
            return try firstGroup(try substitute(pattern), in: bodyText)
        case .variable(let name):
            let text: String
            do { text = try substitute("{{\(name)}}") } catch { return nil }
            return CheckValue(variableText: text)
        }
    }

    func jsonpath(_ path: String, in text: String) throws -> CheckValue? {
        let query: JSONPathQuery
        do { query = try JSONPathQuery(path) } catch { throw CheckError(error.message) }
        let document: JSONValue
        do { document = try JSONParser.parse(text) } catch {
            throw CheckError("jsonpath \(quoting: path): the text is not JSON (\(error))")
        }
        return query.evaluate(document)
    }

    func firstGroup(_ pattern: String, in text: String) throws -> CheckValue? {
        guard let regex = CheckRegex.make(pattern) else { throw CheckError("\(quoting: pattern) is not a regular expression") }
        guard let match = text.firstMatch(of: regex) else { return nil }
        let output = match.output
        guard let group = (output.count > 1 ? output[1] : output[0]).substring else { return nil }
        return .string(String(group))
    }

    /// `name` or `name[Attribute]` of the response's `Set-Cookie` fields (the last one of that name).
    func cookie(_ spec: String) throws -> CheckValue? {
        var name = spec, attribute: String?
        if let open = spec.firstIndex(of: "["), spec.hasSuffix("]") {
            name = String(spec[..<open])
            attribute = String(spec[spec.index(after: open)..<spec.index(before: spec.endIndex)])
        }
        let fields = response.headers.filter { HTTPHeader.namesMatch($0.name, "Set-Cookie") }.map(\.value)
        guard let field = fields.last(where: { SetCookie.nameAndValue(String($0.split(separator: ";").first ?? "")).name == name }) else { return nil }
        let parts = field.split(separator: ";").map { SetCookie.nameAndValue($0.trimmingWhitespace()) }
        guard let attribute, attribute.lowercased() != "value" else { return .string(parts[0].value) }
        guard let found = parts.dropFirst().last(where: { $0.name.lowercased() == attribute.lowercased() }) else { return nil }
        switch attribute.lowercased() {
        case "max-age": return Int(found.value).map(CheckValue.integer) ?? .string(found.value)
        case "secure", "httponly": return .bool(true)
        default: return .string(found.value)
        }
    }

    static func base64URLSafe(_ data: Data) -> String {
        data.base64EncodedString().replacingEvery("+", with: "-").replacingEvery("/", with: "_").replacingEvery("=", with: "")
    }

    func apply(_ filter: CheckFilter, to value: CheckValue) throws -> CheckValue {
        func fail(_ what: String) -> CheckError { CheckError("filter \(what): cannot apply to \(value.described)") }
        switch (filter, value) {
        case (.count, .list(let items)): return .integer(items.count)
        case (.count, .object(let members)): return .integer(members.count)
        case (.count, .bytes(let data)): return .integer(data.count)
        case (.count, .string(let s)): return .integer(s.count)
        case (.first, .list(let items)):
            guard let first = items.first else { throw CheckError("filter first: the list is empty") }
            return first
        case (.last, .list(let items)):
            guard let last = items.last else { throw CheckError("filter last: the list is empty") }
            return last
        case (.nth(let n), .list(let items)):
            let i = n < 0 ? items.count + n : n
            guard items.indices.contains(i) else { throw CheckError("filter nth \(n): the list has \(items.count) items") }
            return items[i]
        case (.regex(let pattern), .string(let s)):
            guard let group = try firstGroup(try substitute(pattern), in: s) else { throw CheckError("filter regex \(quoting: pattern): no match in \(value.described)") }
            return group
        case let (.replace(old, new, isRegex), .string(s)):
            let old = try substitute(old), new = try substitute(new)
            if isRegex {
                guard let regex = CheckRegex.make(old) else { throw CheckError("\(quoting: old) is not a regular expression") }
                return .string(s.replacing(regex, with: new))
            }
            return .string(old.isEmpty ? s : s.replacingEvery(old, with: new))
        case (.split(let separator), .string(let s)):
            let separator = try substitute(separator)
            guard !separator.isEmpty else { throw CheckError("filter split: an empty separator") }
            return .list(s.components(separatedBy: separator).map(CheckValue.string))
        case (.toInt, .integer): return value
        case (.toInt, .float(let n)):
            guard n.isFinite, abs(n) < 9e18 else { throw fail("toInt") }
            return .integer(Int(n))
        case (.toInt, .string(let s)):
            guard let n = Int(s.trimmingWhitespace()) else { throw fail("toInt") }
            return .integer(n)
        case (.toFloat, .float): return value
        case (.toFloat, .integer(let n)): return .float(Double(n))
        case (.toFloat, .string(let s)):
            guard let n = Double(s.trimmingWhitespace()) else { throw fail("toFloat") }
            return .float(n)
        case (.toString, _): return .string(value.text)
        case (.urlDecode, .string(let s)):
            guard let decoded = s.percentDecoded() else { throw fail("urlDecode") }
            return .string(decoded)
        case (.urlEncode, .string(let s)):
            return .string(s.percentEncoded())
        case (.htmlEscape, .string(let s)):
            return .string(s.replacingEvery("&", with: "&amp;").replacingEvery("<", with: "&lt;")
                .replacingEvery(">", with: "&gt;").replacingEvery("\"", with: "&quot;").replacingEvery("'", with: "&#x27;"))
        case (.htmlUnescape, .string(let s)):
            return .string(HTMLEntities.unescape(s))
        case (.base64Decode, .string(let s)), (.base64URLSafeDecode, .string(let s)):
            var text = s.replacingEvery("-", with: "+").replacingEvery("_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            guard let data = Data(base64Encoded: text) else { throw fail("base64Decode") }
            return .bytes(data)
        case (.base64Encode, .bytes(let data)): return .string(data.base64EncodedString())
        case (.base64Encode, .string(let s)): return .string(Data(s.utf8).base64EncodedString())
        case (.base64URLSafeEncode, .bytes(let data)): return .string(Self.base64URLSafe(data))
        case (.base64URLSafeEncode, .string(let s)): return .string(Self.base64URLSafe(Data(s.utf8)))
        case (.toHex, .bytes(let data)): return .string(data.map { String(printf: "%02x", $0) }.joined())
        case (.utf8Decode, .bytes(let data)): return .string(String(decoding: data, as: UTF8.self))
        case (.utf8Encode, .string(let s)): return .bytes(Data(s.utf8))
        case (.decode(let encoding), .bytes(let data)):
            let encodings: [String: String.Encoding] = ["utf-8": .utf8, "utf8": .utf8, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1,
                                                         "windows-1252": .windowsCP1252, "ascii": .ascii, "us-ascii": .ascii, "utf-16": .utf16]
            guard let known = encodings[encoding.lowercased()] else { throw CheckError("filter decode: reqtop does not know the encoding \(quoting: encoding)") }
            if known == .windowsCP1252 { return .string(Windows1252.decode(data)) }
            guard let text = String(data: data, encoding: known) else { throw fail("decode \(encoding)") }
            return .string(text)
        case (.urlQueryParam(let name), .string(let s)):
            let name = try substitute(name)
            guard let query = s.split(separator: "?", maxSplits: 1).dropFirst().first else { throw CheckError("filter urlQueryParam: \(value.described) has no query") }
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if (parts[0].percentDecoded() ?? String(parts[0])) == name {
                    let raw = parts.count > 1 ? String(parts[1]) : ""
                    return .string(raw.replacingEvery("+", with: " ").percentDecoded() ?? raw)
                }
            }
            throw CheckError("filter urlQueryParam \(quoting: name): no such parameter in \(value.described)")
        case (.jsonpath(let path), .string(let s)):
            guard let found = try jsonpath(try substitute(path), in: s) else { throw CheckError("filter jsonpath \(quoting: path): selected nothing") }
            return found
        default:
            throw fail("\(filter)")
        }
    }
}

/// A message digest over OpenSSL (`sha256`, `md5` queries).
enum Digest {
    static func compute(_ algorithm: String, _ data: Data) throws -> Data {
        var out = [UInt8](repeating: 0, count: 64)
        let length = data.withUnsafeBytes { bytes in
            ctls_digest(algorithm, nil, 0, bytes.bindMemory(to: UInt8.self).baseAddress, data.count, &out)
        }
        guard length > 0 else { throw CheckError("\(algorithm) is not available") }
        return Data(out.prefix(Int(length)))
    }
}

/// The few HTML entities `htmlUnescape` knows: the five XML ones and numeric references.
enum HTMLEntities {
    static func unescape(_ text: String) -> String {
        guard text.containsBytes("&") else { return text }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{a0}"]
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let entity = String(after[..<semi])
                var replacement: String?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    replacement = named[entity]
                }
                if let replacement {
                    out += replacement
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
