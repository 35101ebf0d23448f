import FoundationEssentials
import ReqtopHTTPModel
import ReqtopTerminalUI

/// How the Body tab shows a body (`v` cycles). Every view sanitizes: response bytes never reach
/// the terminal as they are.
package enum BodyView: String, CaseIterable, Sendable {
    /// JSON or HTML/XML by Content-Type or content, text when the body is mostly text, else hex.
    case auto
    /// Pretty JSON: members in the order received, numbers as written, `{}`/`[]` compact.
    case json
    /// HTML or XML indented: one tag per line, nesting shown, short elements on one line.
    case markup = "html/xml"
    /// UTF-8, lenient: invalid bytes as �, control characters as Control Pictures (␛).
    case text
    /// `hexdump -C` lines.
    case hex
    /// The bytes with nothing reformatted: lines split at LF only, CR and tab shown (␍ ␉).
    case raw

    var next: BodyView { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }

    /// The lines (or hex dump) of `bytes` in this view; `mimeType` guides `auto`.
    func content(of bytes: Data, mimeType: String?) -> DetailContent {
        switch self {
        case .auto:
            if mimeType?.containsBytes("json") == true || Self.looksLikeJSON(bytes), let lines = Self.prettyJSON(bytes) { return .json(lines) }
            if Self.isMostlyText(bytes), mimeType.map(Self.isMarkupType) ?? false
                || MarkupIndenter.looksLikeMarkup(String(decoding: bytes.prefix(64), as: UTF8.self)) {
                return BodyView.markup.content(of: bytes, mimeType: mimeType)
            }
            return Self.isMostlyText(bytes) ? BodyView.text.content(of: bytes, mimeType: mimeType) : .hex(Array(bytes), note: nil)
        case .json:
            guard let lines = Self.prettyJSON(bytes) else {
                return .lines(["(not valid JSON: shown as text)", ""] + Sanitizer.lines(String(decoding: bytes, as: UTF8.self)))
            }
            return .json(lines)
        case .markup:
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.containsBytes("<") else { return .lines(["(no tags: shown as text)", ""] + Sanitizer.lines(text)) }
            return .markup(MarkupIndenter.lines(text).flatMap { Sanitizer.lines($0) })
        case .text: return .lines(Sanitizer.lines(String(decoding: bytes, as: UTF8.self)))
        case .hex: return .hex(Array(bytes), note: nil)
        case .raw:
            return .lines(bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                var scalars = String.UnicodeScalarView()
                for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
                    scalars.append(scalar.value == 0x09 || scalar.value == 0x0D ? Unicode.Scalar(0x2400 + scalar.value)! : scalar)
                }
                return Sanitizer.singleLine(String(scalars))
            })
        }
    }

    /// HTML, XML, and the `+xml` types (SVG, Atom, RSS…).
    static func isMarkupType(_ mimeType: String) -> Bool {
        mimeType.containsBytes("html") || mimeType.hasSuffix("xml")
    }

    static func looksLikeJSON(_ bytes: Data) -> Bool {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Text unless more than 1 in 10 of the first 4 KB are NULs, other controls or invalid UTF-8.
    static func isMostlyText(_ bytes: Data) -> Bool {
        let sample = bytes.prefix(4096)
        guard !sample.isEmpty else { return true }
        let decoded = String(decoding: sample, as: UTF8.self).unicodeScalars
        let odd = decoded.filter { ($0.value < 0x20 && ![0x09, 0x0A, 0x0D, 0x1B].contains($0.value)) || $0.value == 0xFFFD }.count
        return odd * 10 <= decoded.count
    }

    static func prettyJSON(_ bytes: Data) -> [String]? {
        guard let value = try? JSONValue(parsing: bytes) else { return nil }
        var lines: [String] = []
        append(value, prefix: "", indent: "", trailer: "", to: &lines)
        return lines.flatMap { Sanitizer.lines($0) }
    }

    private static func append(_ value: JSONValue, prefix: String, indent: String, trailer: String, to lines: inout [String]) {
        switch value {
        case .array(let items) where !items.isEmpty:
            lines.append(indent + prefix + "[")
            for (i, item) in items.enumerated() {
                append(item, prefix: "", indent: indent + "  ", trailer: i == items.count - 1 ? "" : ",", to: &lines)
            }
            lines.append(indent + "]" + trailer)
        case .object(let members) where !members.isEmpty:
            lines.append(indent + prefix + "{")
            for (i, member) in members.enumerated() {
                append(member.value, prefix: JSONEscaping.quoted(member.key) + ": ", indent: indent + "  ",
                       trailer: i == members.count - 1 ? "" : ",", to: &lines)
            }
            lines.append(indent + "}" + trailer)
        default:
            lines.append(indent + prefix + value.jsonText + trailer) // scalars, and `{}` / `[]` on one line
        }
    }
}
