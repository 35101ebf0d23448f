import FoundationEssentials

/// A parsed JSON value. Numbers keep their source text so `{{login.response.body.$.id}}`
/// substitutes exactly what the server sent.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(b)
        case let .number(n): hasher.combine(n)
        case let .string(s): hasher.combine(s)
        case let .array(a): hasher.combine(a)
        case let .object(o):
            for member in o {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member with this key, for objects.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, for `.string`; nil otherwise.
    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// Text for substitution: strings unquoted, everything else as compact JSON.
    public var substitutionText: String {
        if case let .string(s) = self { return s }
        return jsonText
    }

    /// Compact JSON.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(n): return n
        case let .string(s): return JSONEscaping.quoted(s)
        case let .array(a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case let .object(o): return "{" + o.map { JSONEscaping.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }
}

extension JSONValue {
    /// Parses a JSON document from UTF-8 bytes (a response body, a file).
    public init(parsing data: Data) throws(JSONSyntaxError) {
        self = try JSONParser.parse(String(decoding: data, as: UTF8.self))
    }
}
