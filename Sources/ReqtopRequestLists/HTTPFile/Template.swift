import Foundation

/// A string with `{{variable}}` placeholders, split into literal text and variable references.
struct Template: Sendable {
    enum Part: Sendable {
        case literal(String)
        /// `name` is the trimmed text between the braces; `offset` the character offset of `{{`.
        case variable(name: String, offset: Int)
    }

    struct SyntaxError: Error {
        var message: String
        /// Character offset in the template.
        var offset: Int
    }

    var parts: [Part]

    /// The variable names, in order.
    var variableNames: [String] {
        parts.compactMap { if case let .variable(name, _) = $0 { return name } else { return nil } }
    }

    static func parse(_ text: String) throws(SyntaxError) -> Template {
        guard text.containsTemplateOpening else { return Template(parts: [.literal(text)]) }
        let chars = Array(text)
        var parts: [Part] = []
        var literal = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "{", i + 1 < chars.count, chars[i + 1] == "{" {
                let start = i
                var j = i + 2
                var found = false
                while j + 1 < chars.count {
                    if chars[j] == "\n" { break }
                    if chars[j] == "}" && chars[j + 1] == "}" { found = true; break }
                    j += 1
                }
                guard found else {
                    throw SyntaxError(message: "unterminated '{{': close the variable with '}}'", offset: start)
                }
                let name = String(chars[(start + 2)..<j]).trimmingWhitespace()
                guard !name.isEmpty else { throw SyntaxError(message: "empty variable name in '{{}}'", offset: start) }
                if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
                parts.append(.variable(name: name, offset: start))
                i = j + 2
            } else {
                literal.append(chars[i])
                i += 1
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return Template(parts: parts)
    }

}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns (found on the bytes: they are ASCII).
    func trimmingWhitespace() -> String {
        let text = Substring(self)
        let bytes = text.utf8
        var start = bytes.startIndex, end = bytes.endIndex
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start == bytes.startIndex, end == bytes.endIndex, let whole = self as? String { return whole }
        return String(text[start..<end])
    }
}

extension StringProtocol {
    /// Whether the text has a `{{` — on the bytes: `contains("{{")` goes through Foundation's
    /// bridged search, which was a third of resolving a 5000-request list.
    var containsTemplateOpening: Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ Self.hasDoubleBrace($0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { Self.hasDoubleBrace($0) }
    }

    /// `{{` in the bytes: `memchr` for each `{` (vectorized), then a look at the byte after it.
    private static func hasDoubleBrace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var cursor = bytes.baseAddress, bytes.count > 1 else { return false }
        var remaining = bytes.count
        while remaining > 1, let brace = memchr(cursor, Int32(UInt8(ascii: "{")), remaining - 1) {
            let found = UnsafePointer(brace.assumingMemoryBound(to: UInt8.self))
            if found[1] == UInt8(ascii: "{") { return true }
            remaining -= (found + 1) - cursor
            cursor = found + 1
        }
        return false
    }
}
