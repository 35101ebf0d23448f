/// Why a HAR's requests could not be read, and where (an object missing a field, or the
/// member holding a value of the wrong type).
struct HARDecodingError: Error {
    var message: String
    var line: Int
    var column: Int
}

/// A located JSON value being decoded, with its path for messages (`log.entries[2].request`).
struct HARNode {
    let json: LocatedJSON
    let path: String
    /// Where values read leniently are counted (one per archive).
    let coercions: HARCoercions

    init(_ json: LocatedJSON, path: String = "", coercions: HARCoercions = HARCoercions()) {
        self.json = json
        self.path = path
        self.coercions = coercions
    }

    /// The member `key`, which must be present.
    func field(_ key: String) throws(HARDecodingError) -> HARNode {
        guard let member = try member(key) else {
            throw error("missing field \(quoting: key) at \(path.isEmpty ? "top level" : path)")
        }
        return member
    }

    /// The member `key`, or nil when it is absent or null.
    func optionalField(_ key: String) throws(HARDecodingError) -> HARNode? {
        guard let member = try member(key), member.json.value != .null else { return nil }
        return member
    }

    private func member(_ key: String) throws(HARDecodingError) -> HARNode? {
        guard case .object = json.value else { throw mismatch("an object") }
        return json[key].map { HARNode($0, path: path.isEmpty ? key : "\(path).\(key)", coercions: coercions) }
    }

    func items() throws(HARDecodingError) -> [HARNode] {
        guard case .array = json.value else { throw mismatch("an array") }
        return json.children.enumerated().map { HARNode($1, path: "\(path)[\($0)]", coercions: coercions) }
    }

    func string() throws(HARDecodingError) -> String {
        guard case let .string(text) = json.value else { throw mismatch("a string") }
        return text
    }

    /// A value meant as text, read the way the tools that write it mean it: a number or a boolean
    /// as its JSON text (Polly.JS records header and query values so), and — with `objects` — an
    /// object or array as compact JSON (chrome-har's `postData.params[].value`). Each such value
    /// is counted for one warning; null and anything else still refuse the archive.
    func text(objects: Bool = false) throws(HARDecodingError) -> String {
        switch json.value {
        case let .string(text):
            return text
        case .number, .bool:
            coercions.count(path, as: "numbers and booleans as their text")
            return json.value.jsonText
        case .object where objects, .array where objects:
            coercions.count(path, as: "objects and arrays as JSON text")
            return json.value.jsonText
        default:
            return try string()
        }
    }

    func int() throws(HARDecodingError) -> Int {
        guard case let .number(text) = json.value, let int = Int(text) ?? Double(text).flatMap({ Int(exactly: $0) }) else {
            throw mismatch("an integer")
        }
        return int
    }

    private func mismatch(_ expected: String) -> HARDecodingError {
        let found = switch json.value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
        return error("unexpected value at \(path.isEmpty ? "top level" : path): expected \(expected), found \(found)")
    }

    private func error(_ message: String) -> HARDecodingError {
        HARDecodingError(message: message, line: json.line, column: json.column)
    }
}

/// Requests are read strictly (they are what gets replayed): every field the model has must
/// have its type.
extension HAR.Request {
    init(_ node: HARNode) throws(HARDecodingError) {
        self.init(method: try node.field("method").string(), url: try node.field("url").string(),
                  httpVersion: try node.optionalField("httpVersion")?.string(),
                  cookies: try node.optionalField("cookies")?.items().map(HAR.Cookie.init),
                  headers: try node.optionalField("headers").map(HTTPHeader.fields(har:)),
                  queryString: try node.optionalField("queryString").map(HTTPHeader.fields(har:)),
                  postData: try node.optionalField("postData").map(HAR.PostData.init),
                  headersSize: try node.optionalField("headersSize")?.int(),
                  bodySize: try node.optionalField("bodySize")?.int())
    }
}

extension HAR.Cookie {
    init(_ node: HARNode) throws(HARDecodingError) {
        self.init(name: try node.field("name").string(), value: try node.field("value").text())
    }
}

extension HTTPHeader {
    /// The fields of a `headers` or `queryString` array. A value written as an array (Polly.JS
    /// records node's multi-valued headers so) is one field per element, as node sends them.
    static func fields(har list: HARNode) throws(HARDecodingError) -> [HTTPHeader] {
        var fields: [HTTPHeader] = []
        for item in try list.items() {
            let name = try item.field("name").string()
            let value = try item.field("value")
            if case .array = value.json.value {
                for element in try value.items() { fields.append(HTTPHeader(name: name, value: try element.text())) }
                value.coercions.count(value.path, as: "arrays as one field per element")
            } else {
                fields.append(HTTPHeader(name: name, value: try value.text()))
            }
        }
        return fields
    }
}

extension HAR.PostData {
    init(_ node: HARNode) throws(HARDecodingError) {
        self.init(mimeType: try node.optionalField("mimeType")?.string(), text: try node.optionalField("text")?.string(),
                  params: try node.optionalField("params")?.items().map(HAR.Param.init),
                  _encoding: try node.optionalField("_encoding")?.string())
    }
}

extension HAR.Param {
    init(_ node: HARNode) throws(HARDecodingError) {
        self.init(name: try node.field("name").string(), value: try node.optionalField("value")?.text(objects: true),
                  fileName: try node.optionalField("fileName")?.string(),
                  contentType: try node.optionalField("contentType")?.string())
    }
}

/// The values of one archive read leniently (`HARNode.text`), by field path with entry and item
/// indices folded (`log.entries[].request.headers[].value`), for the one warning that says so.
final class HARCoercions {
    private(set) var counts: [String: (how: String, count: Int, first: String)] = [:]

    func count(_ path: String, as how: String) {
        let folded = path.replacing(#/\[[0-9]+\]/#) { _ in "[]" }
        let key = folded + " " + how
        counts[key, default: (how, 0, path)].count += 1
    }

    /// One sentence, or nil when every value was a string.
    var summary: String? {
        guard !counts.isEmpty else { return nil }
        let parts = counts.keys.sorted().map { key -> String in
            let entry = counts[key]!
            let folded = String(key.dropLast(entry.how.count + 1))
            return "\(folded) ×\(entry.count) (\(entry.how); first at \(entry.first))"
        }
        return "values that HAR 1.2 writes as strings were read as the recording tool meant them: " + parts.joined(separator: ", ")
    }
}
