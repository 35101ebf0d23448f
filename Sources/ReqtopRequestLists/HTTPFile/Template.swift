import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
