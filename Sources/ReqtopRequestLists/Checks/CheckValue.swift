import FoundationEssentials

/// A typed value a response check works on, as Hurl types them: a query's result, a filter's, or a
/// predicate's expected value. Integers and floats stay apart (`isInteger`, `isFloat`) but compare
/// as numbers; JSON objects keep their members in order.
public indirect enum CheckValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case float(Double)
    case string(String)
    case bytes(Data)
    case list([CheckValue])
    case object([(key: String, value: CheckValue)])

    public static func == (lhs: CheckValue, rhs: CheckValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.float(a), .float(b)): a == b
        case let (.integer(a), .float(b)), let (.float(b), .integer(a)): Double(a) == b
        case let (.string(a), .string(b)): a == b
        case let (.bytes(a), .bytes(b)): a == b
        case let (.list(a), .list(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && $0.value == member.value } }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .integer(let n): hasher.combine(Double(n))
        case .float(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .bytes(let d): hasher.combine(d)
        case .list(let l): hasher.combine(l)
        case .object(let o): hasher.combine(o.count)
        }
    }

    /// A JSON value typed: numbers with a fraction or an exponent are floats, the others integers
    /// (floats when they do not fit).
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let n = Int(text) {
                self = .integer(n)
            } else {
                self = .float(Double(text) ?? .nan)
            }
        case .string(let s): self = .string(s)
        case .array(let items): self = .list(items.map(CheckValue.init))
        case .object(let members): self = .object(members.map { ($0.key, CheckValue($0.value)) })
        }
    }

    /// A variable's text typed as Hurl types `--variable` values: `true`/`false`, `null`, integers
    /// and floats; anything else is a string.
    public init(variableText text: String) {
        switch text {
        case "true": self = .bool(true)
        case "false": self = .bool(false)
        case "null": self = .null
        default:
            if let n = Int(text), text.first != "+" { self = .integer(n) }
            else if text.containsBytes("."), text.first != "+", text.last != ".", let n = Double(text), n.isFinite, !text.contains(where: \.isLetter) { self = .float(n) }
            else { self = .string(text) }
        }
    }

    /// The type's name, as Hurl's failure messages give it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .float: "float"
        case .string: "string"
        case .bytes: "bytes"
        case .list: "list"
        case .object: "object"
        }
    }

    /// The value as a variable keeps it (and as a template writes it): strings as they are, bytes
    /// as hex, lists and objects as JSON.
    public var text: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .integer(let n): String(n)
        case .float(let n): Self.floatText(n)
        case .string(let s): s
        case .bytes(let d): d.map { String(printf: "%02x", $0) }.joined()
        case .list, .object: json
        }
    }

    /// The value as JSON text.
    public var json: String {
        switch self {
        case .string(let s):
            var out: [UInt8] = []
            JSONEscaping.appendQuoted(s, to: &out)
            return String(decoding: out, as: UTF8.self)
        case .list(let items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { CheckValue.string($0.key).json + ":" + $0.value.json }.joined(separator: ",") + "}"
        case .bytes: return CheckValue.string(text).json
        default: return text
        }
    }

    /// `type <value>`, as failure messages show a value.
    public var described: String {
        switch self {
        case .string(let s): "string <\(s)>"
        case .bytes(let d): "bytes <\(d.count > 64 ? d.prefix(64).map { String(printf: "%02x", $0) }.joined() + "…" : text)>"
        case .list(let items): "list <\(items.count > 20 ? "[" + items.prefix(20).map(\.json).joined(separator: ",") + ",…]" : json)>"
        default: "\(typeName) <\(json.count > 200 ? String(json.prefix(200)) + "…" : json)>"
        }
    }

    static func floatText(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(printf: "%.1f", n) }
        return String(n)
    }

    /// The number, for integers and floats.
    var number: Double? {
        switch self {
        case .integer(let n): Double(n)
        case .float(let n): n
        default: nil
        }
    }
}
