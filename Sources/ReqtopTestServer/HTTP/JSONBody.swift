import FoundationEssentials
import ReqtopHTTPModel

/// JSON documents written as the test server's endpoints answer them: sorted keys, two-space
/// indents, `"key" : value`, slashes unescaped (the layout Foundation's `JSONSerialization` gives
/// with `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`), then a newline.
///
/// Values: `[String: Any]`, `[Any]`, `String`, `Bool`, integers, `Double`, `JSONValue` (a parsed
/// request body: its numbers as the client wrote them), nil or anything else as `null`.
enum JSONBody {
    static func encode(_ object: [String: Any]) -> [UInt8] {
        var out: [UInt8] = []
        write(object, indent: 0, to: &out)
        out.append(10)
        return out
    }

    private static func write(_ value: Any, indent: Int, to out: inout [UInt8]) {
        switch value {
        case let object as [String: Any]:
            writeContainer(object.keys.sorted().map { key in { (out: inout [UInt8]) in
                JSONEscaping.appendQuoted(key, to: &out)
                out += Array(" : ".utf8)
                write(object[key]!, indent: indent + 1, to: &out)
            } }, open: "{", close: "}", indent: indent, to: &out)
        case let array as [Any]:
            writeContainer(array.map { item in { (out: inout [UInt8]) in write(item, indent: indent + 1, to: &out) } },
                           open: "[", close: "]", indent: indent, to: &out)
        case let json as JSONValue:
            switch json {
            case .null: out += Array("null".utf8)
            case .bool(let b): out += Array((b ? "true" : "false").utf8)
            case .number(let text): out += Array(text.utf8)
            case .string(let s): JSONEscaping.appendQuoted(s, to: &out)
            case .array(let items): write(items as [Any], indent: indent, to: &out)
            case .object(let members):
                write(Dictionary(members.map { ($0.key, $0.value as Any) }, uniquingKeysWith: { _, last in last }), indent: indent, to: &out)
            }
        case let text as String: JSONEscaping.appendQuoted(text, to: &out)
        case let flag as Bool: out += Array((flag ? "true" : "false").utf8)
        case let number as Int: out += Array(String(number).utf8)
        case let number as Int64: out += Array(String(number).utf8)
        case let number as UInt64: out += Array(String(number).utf8)
        case let number as Double:
            let text = number.isFinite && number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
            out += Array(text.utf8)
        default: out += Array("null".utf8)
        }
    }

    private static func writeContainer(_ items: [(inout [UInt8]) -> Void], open: String, close: String, indent: Int,
                                       to out: inout [UInt8]) {
        out += Array(open.utf8)
        out.append(10)
        if items.isEmpty { out.append(10) }
        for (index, item) in items.enumerated() {
            out += [UInt8](repeating: 0x20, count: 2 * (indent + 1))
            item(&out)
            if index < items.count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(10)
        }
        out += [UInt8](repeating: 0x20, count: 2 * indent)
        out += Array(close.utf8)
    }
}
