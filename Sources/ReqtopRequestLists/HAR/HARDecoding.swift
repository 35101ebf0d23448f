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

    init(_ json: LocatedJSON, path: String = "") {
        self.json = json
        self.path = path
    }

    /// The member `key`, which must be present.
    func field(_ key: String) throws(HARDecodingError) -> HARNode {
        guard let member = try member(key) else {
            throw error("missing field '\(key)' at \(path.isEmpty ? "top level" : path)")
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
        return json[key].map { HARNode($0, path: path.isEmpty ? key : "\(path).\(key)") }
    }

    func items() throws(HARDecodingError) -> [HARNode] {
        guard case .array = json.value else { throw mismatch("an array") }
        return json.children.enumerated().map { HARNode($1, path: "\(path)[\($0)]") }
    }

    func string() throws(HARDecodingError) -> String {
        guard case let .string(text) = json.value else { throw mismatch("a string") }
        return text
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
                  headers: try node.optionalField("headers")?.items().map(HTTPHeader.init(har:)),
                  queryString: try node.optionalField("queryString")?.items().map(HTTPHeader.init(har:)),
                  postData: try node.optionalField("postData").map(HAR.PostData.init),
                  headersSize: try node.optionalField("headersSize")?.int(),
                  bodySize: try node.optionalField("bodySize")?.int())
    }
}

extension HAR.Cookie {
    init(_ node: HARNode) throws(HARDecodingError) {
        self.init(name: try node.field("name").string(), value: try node.field("value").string())
    }
}

extension HTTPHeader {
    init(har node: HARNode) throws(HARDecodingError) {
        self.init(name: try node.field("name").string(), value: try node.field("value").string())
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
        self.init(name: try node.field("name").string(), value: try node.optionalField("value")?.string(),
                  fileName: try node.optionalField("fileName")?.string(),
                  contentType: try node.optionalField("contentType")?.string())
    }
}
