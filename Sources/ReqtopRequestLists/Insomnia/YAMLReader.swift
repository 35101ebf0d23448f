import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The YAML that Insomnia (js-yaml) writes, read into located JSON values: block mappings and
/// sequences by indentation, `key: value` with plain, single- and double-quoted scalars (folded
/// over lines, escapes decoded), `|` and `>` block scalars (with `-`/`+` chomping and an
/// indentation indicator), one-line flow collections (`{}`, `[a, b]`, `{a: 1}`), comments and a
/// `---` start. Plain scalars are typed as YAML 1.2's core schema types them (null, booleans,
/// numbers, else strings). Anchors, aliases, tags and multi-document files are refused, located.
struct YAMLReader {
    struct Failure: Error {
        var message: String
        var line: Int
        var column: Int
    }

    private var lines: [String]
    private var index = 0

    init(_ text: String) {
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
    }

    static func parse(_ text: String) throws(Failure) -> LocatedJSON {
        var reader = YAMLReader(text)
        reader.skipBlank()
        if reader.index < reader.lines.count, reader.lines[reader.index].hasPrefix("---") { reader.index += 1 }
        reader.skipBlank()
        guard reader.index < reader.lines.count else { return LocatedJSON(value: .null, line: 1, column: 1, children: []) }
        let node = try reader.node(minIndent: 0)
        reader.skipBlank()
        if reader.index < reader.lines.count {
            let line = reader.lines[reader.index]
            if line.hasPrefix("---") || line.hasPrefix("...") {
                throw Failure(message: "a second YAML document: reqtop reads one", line: reader.index + 1, column: 1)
            }
            throw Failure(message: "unexpected indentation", line: reader.index + 1, column: Self.indent(of: line) + 1)
        }
        return node
    }

    static func indent(of line: String) -> Int { line.prefix { $0 == " " }.count }

    static func isBlank(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    mutating func skipBlank() {
        while index < lines.count, Self.isBlank(lines[index]) { index += 1 }
    }

    /// The node starting at the current line, indented at least `minIndent`.
    mutating func node(minIndent: Int) throws(Failure) -> LocatedJSON {
        skipBlank()
        let line = lines[index]
        let indent = Self.indent(of: line)
        let content = line.dropFirst(indent)
        if content.hasPrefix("\t") { throw Failure(message: "a tab in the indentation", line: index + 1, column: indent + 1) }
        if content == "-" || content.hasPrefix("- ") { return try sequence(indent: indent) }
        if Self.mappingKey(content) != nil { return try mapping(indent: indent) }
        let (value, _) = try scalarValue(Substring(content), column: indent + 1, parentIndent: minIndent - 1)
        return value
    }

    /// `key` and the text after `key:` when `content` is a mapping entry.
    static func mappingKey(_ content: Substring) -> (key: String, rest: Substring, keyLength: Int)? {
        if let quote = content.first, quote == "\"" || quote == "'" {
            var i = content.index(after: content.startIndex)
            while i < content.endIndex, content[i] != quote {
                if content[i] == "\\", quote == "\"" { // an escape: the next character is not the closing quote
                    i = content.index(after: i)
                    if i == content.endIndex { break } // a backslash at the end of the line: no key
                }
                i = content.index(after: i)
            }
            guard i < content.endIndex else { return nil }
            let after = content[content.index(after: i)...]
            guard after.hasPrefix(":"), after.count == 1 || after.dropFirst().first == " " else { return nil }
            let key = String(content[content.index(after: content.startIndex)..<i])
            return (key, after.dropFirst(), content.distance(from: content.startIndex, to: i) + 2)
        }
        guard let first = content.first, !"[{#&*!|>%@`".contains(first) else { return nil }
        var i = content.startIndex
        while i < content.endIndex {
            if content[i] == ":" {
                let next = content.index(after: i)
                if next == content.endIndex || content[next] == " " {
                    return (String(content[..<i]).trimmingWhitespace(), content[next...], content.distance(from: content.startIndex, to: i) + 1)
                }
            }
            if content[i] == " ", content.index(after: i) < content.endIndex, content[content.index(after: i)] == "#" { return nil }
            i = content.index(after: i)
        }
        return nil
    }

    mutating func mapping(indent: Int) throws(Failure) -> LocatedJSON {
        let start = index + 1
        var members: [(key: String, value: JSONValue)] = []
        var children: [LocatedJSON] = []
        while true {
            skipBlank()
            guard index < lines.count else { break }
            let line = lines[index]
            let lineIndent = Self.indent(of: line)
            if lineIndent < indent { break }
            guard lineIndent == indent else { throw Failure(message: "unexpected indentation", line: index + 1, column: lineIndent + 1) }
            let content = line.dropFirst(indent)
            if content == "-" || content.hasPrefix("- ") { break } // a sequence at the parent's indent ends this mapping
            guard let (key, rest, keyLength) = Self.mappingKey(content) else {
                throw Failure(message: "expected 'key: value'", line: index + 1, column: indent + 1)
            }
            let keyLine = index + 1
            let value = try entryValue(rest, column: indent + keyLength + 1, indent: indent)
            // Where the member starts, as LocatedJSON places object members: at its key.
            children.append(LocatedJSON(value: value.value, line: keyLine, column: indent + 1, children: value.children))
            members.append((key, value.value))
        }
        return LocatedJSON(value: .object(members), line: start, column: indent + 1, children: children)
    }

    mutating func sequence(indent: Int) throws(Failure) -> LocatedJSON {
        let start = index + 1
        var items: [JSONValue] = []
        var children: [LocatedJSON] = []
        while true {
            skipBlank()
            guard index < lines.count else { break }
            let line = lines[index]
            let lineIndent = Self.indent(of: line)
            let content = line.dropFirst(lineIndent)
            guard lineIndent == indent, content == "-" || content.hasPrefix("- ") else {
                if lineIndent > indent { throw Failure(message: "unexpected indentation", line: index + 1, column: lineIndent + 1) }
                break
            }
            let item: LocatedJSON
            if content == "-" {
                index += 1
                skipBlank()
                if index < lines.count, Self.indent(of: lines[index]) > indent {
                    item = try node(minIndent: indent + 1)
                } else {
                    item = LocatedJSON(value: .null, line: index, column: indent + 1, children: [])
                }
            } else {
                // `- key: value` starts a mapping two columns in: read it as if the dash were a space.
                let after = content.dropFirst(2)
                let extra = after.prefix { $0 == " " }.count
                lines[index] = String(repeating: " ", count: indent + 2 + extra) + after.dropFirst(extra)
                item = try node(minIndent: indent + 1)
            }
            items.append(item.value)
            children.append(item)
        }
        return LocatedJSON(value: .array(items), line: start, column: indent + 1, children: children)
    }

    /// The value after `key:` on the current line (`rest`), which may go on below it.
    mutating func entryValue(_ rest: Substring, column: Int, indent: Int) throws(Failure) -> LocatedJSON {
        let text = rest.drop { $0 == " " }
        let valueColumn = column + (rest.count - text.count)
        if text.isEmpty || text.hasPrefix("#") {
            let keyLine = index + 1
            index += 1
            skipBlank()
            guard index < lines.count else { return LocatedJSON(value: .null, line: keyLine, column: valueColumn, children: []) }
            let nextIndent = Self.indent(of: lines[index])
            let nextContent = lines[index].dropFirst(nextIndent)
            if nextIndent > indent || (nextIndent == indent && (nextContent == "-" || nextContent.hasPrefix("- "))) {
                return try node(minIndent: nextIndent)
            }
            return LocatedJSON(value: .null, line: keyLine, column: valueColumn, children: [])
        }
        let (value, _) = try scalarValue(text, column: valueColumn, parentIndent: indent)
        return value
    }

    /// A scalar or flow collection starting at `text` on the current line (column `column`);
    /// continuation lines must be indented more than `parentIndent`. Leaves the index after it.
    mutating func scalarValue(_ text: Substring, column: Int, parentIndent: Int) throws(Failure) -> (LocatedJSON, Int) {
        let line = index + 1
        func located(_ value: JSONValue) -> LocatedJSON { LocatedJSON(value: value, line: line, column: column, children: []) }
        guard let first = text.first else {
            index += 1
            return (located(.null), line)
        }
        if first == "&" || first == "*" || first == "!" {
            throw Failure(message: "YAML anchors, aliases and tags are not read by reqtop", line: line, column: column)
        }
        if first == "|" || first == ">" { return (located(.string(try blockScalar(String(text), parentIndent: parentIndent))), line) }
        if first == "\"" || first == "'" { return (located(.string(try quoted(text, quote: first, column: column, parentIndent: parentIndent))), line) }
        if first == "[" || first == "{" {
            var flow = FlowReader(chars: Array(text), line: line, column: column)
            let value = try flow.value()
            flow.skipSpaces()
            guard flow.atEnd || flow.chars[flow.i] == "#" else {
                throw Failure(message: "unexpected text after the flow collection (reqtop reads flow collections on one line)", line: line, column: column + flow.i)
            }
            index += 1
            return (value, line)
        }
        // A plain scalar, folded over the more-indented lines that follow.
        var parts = [Self.stripComment(text)]
        index += 1
        while index < lines.count {
            let next = lines[index]
            if Self.isBlank(next) {
                // A blank line inside a plain scalar is a line break; one after it ends nothing yet.
                var look = index
                while look < lines.count, Self.isBlank(lines[look]) { look += 1 }
                guard look < lines.count, Self.indent(of: lines[look]) > parentIndent, !lines[look].trimmingWhitespace().hasPrefix("#") else { break }
                parts.append("\n")
                index = look
                continue
            }
            let nextIndent = Self.indent(of: next)
            guard nextIndent > parentIndent, Self.mappingKey(next.dropFirst(nextIndent)) == nil, !next.dropFirst(nextIndent).hasPrefix("- ") else { break }
            parts.append(Self.stripComment(next.dropFirst(nextIndent)))
            index += 1
        }
        var joined = ""
        for part in parts {
            if part == "\n" { joined += "\n"; continue }
            if !joined.isEmpty, !joined.hasSuffix("\n") { joined += " " }
            joined += part
        }
        return (located(parts.count == 1 ? Self.typed(joined) : .string(joined)), line)
    }

    static func stripComment(_ text: Substring) -> String {
        var out = Substring(text)
        if let range = text.byteRange(of: " #") { out = text[..<range.lowerBound] }
        return String(out).trimmingWhitespace()
    }

    /// `^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`: YAML 1.2's core schema's numbers (checked by hand).
    static func isNumber(_ text: String) -> Bool {
        var rest = Array(text.utf8)[...]
        func digits() -> Int {
            let count = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            rest = rest.dropFirst(count)
            return count
        }
        func sign() { if let first = rest.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { rest = rest.dropFirst() } }
        sign()
        let first = rest.first
        let whole = digits()
        guard whole > 0, first != UInt8(ascii: "0") || whole == 1 else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            sign()
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    /// A plain scalar typed by YAML 1.2's core schema.
    static func typed(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if Self.isNumber(text) {
            return .number(text.hasPrefix("+") ? String(text.dropFirst()) : text)
        }
        return .string(text)
    }

    /// A quoted scalar from `text` (its opening quote first), folded over lines until the closing quote.
    mutating func quoted(_ text: Substring, quote: Character, column: Int, parentIndent: Int) throws(Failure) -> String {
        let startLine = index + 1
        var out = ""
        var chars = Array(text.dropFirst())
        var i = 0
        var pendingBreaks = 0
        var lineStart = true
        while true {
            if i >= chars.count {
                // The string goes on: fold the line break.
                index += 1
                guard index < lines.count else { throw Failure(message: "the quoted string is not closed", line: startLine, column: column) }
                while let last = out.last, last == " " || last == "\t", pendingBreaks == 0 { out.removeLast() }
                pendingBreaks += 1
                chars = Array(lines[index].drop { $0 == " " || $0 == "\t" })
                i = 0
                lineStart = true
                continue
            }
            if lineStart, pendingBreaks > 0 {
                // One break is a space; each further (an empty line) is a line feed.
                out += pendingBreaks == 1 ? " " : String(repeating: "\n", count: pendingBreaks - 1)
                pendingBreaks = 0
            }
            lineStart = false
            let c = chars[i]
            i += 1
            if c == quote {
                if quote == "'", i < chars.count, chars[i] == "'" {
                    out.append("'")
                    i += 1
                    continue
                }
                let after = String(chars[i...]).trimmingWhitespace()
                guard after.isEmpty || after.hasPrefix("#") else {
                    throw Failure(message: "unexpected text after the quoted string", line: index + 1, column: 1)
                }
                index += 1
                return out
            }
            if quote == "\"", c == "\\" {
                guard i < chars.count else {
                    // `\` at a line's end: the line goes on with no space.
                    index += 1
                    guard index < lines.count else { throw Failure(message: "the quoted string is not closed", line: startLine, column: column) }
                    chars = Array(lines[index].drop { $0 == " " || $0 == "\t" })
                    i = 0
                    continue
                }
                let e = chars[i]
                i += 1
                switch e {
                case "n": out.append("\n")
                case "t", "\t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\u{0}")
                case "b": out.append("\u{8}")
                case "e": out.append("\u{1B}")
                case " ": out.append(" ")
                case "/": out.append("/")
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "N": out.append("\u{85}")
                case "_": out.append("\u{A0}")
                case "x", "u", "U":
                    let count = e == "x" ? 2 : e == "u" ? 4 : 8
                    guard i + count <= chars.count, let code = UInt32(String(chars[i..<(i + count)]), radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw Failure(message: "a bad \\\(e) escape", line: index + 1, column: 1)
                    }
                    i += count
                    out.unicodeScalars.append(scalar)
                default: throw Failure(message: "unknown escape \\\(e)", line: index + 1, column: 1)
                }
                continue
            }
            out.append(c)
        }
    }

    /// A `|` or `>` block scalar: its header is `header`, its lines the more-indented ones below.
    mutating func blockScalar(_ header: String, parentIndent: Int) throws(Failure) -> String {
        let literal = header.first == "|"
        let indicators = header.dropFirst().prefix { $0 != " " && $0 != "#" }
        let chomp: Character? = indicators.first { $0 == "-" || $0 == "+" }
        let explicit: Int? = indicators.first { $0.isNumber }.flatMap { Int(String($0)) }.map { parentIndent + $0 }
        index += 1
        var content: [String] = []
        var blockIndent = explicit
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            let lineIndent = Self.indent(of: line)
            if trimmed.isEmpty {
                content.append("")
                index += 1
                continue
            }
            if blockIndent == nil { blockIndent = lineIndent > max(parentIndent, 0) || parentIndent < 0 ? lineIndent : nil }
            guard let blockIndent, lineIndent >= blockIndent, lineIndent > parentIndent else { break }
            content.append(String(line.dropFirst(blockIndent)))
            index += 1
        }
        // Trailing empty lines belong to chomping.
        var trailing = 0
        while let last = content.last, last.isEmpty { content.removeLast(); trailing += 1 }
        var text: String
        if literal {
            text = content.joined(separator: "\n")
        } else {
            text = ""
            var previousMoreIndented = false
            for (offset, line) in content.enumerated() {
                let moreIndented = line.hasPrefix(" ") || line.hasPrefix("\t")
                if offset > 0 {
                    if line.isEmpty { text += "\n"; continue }
                    text += (moreIndented || previousMoreIndented || content[offset - 1].isEmpty) ? (content[offset - 1].isEmpty ? "" : "\n") : " "
                }
                text += line
                previousMoreIndented = moreIndented
            }
        }
        switch chomp {
        case "-": return text
        case "+": return content.isEmpty ? String(repeating: "\n", count: trailing) : text + "\n" + String(repeating: "\n", count: trailing)
        default: return content.isEmpty ? "" : text + "\n"
        }
    }
}

/// A one-line flow collection: `[a, "b", {c: 1}]`, `{ }`.
struct FlowReader {
    let chars: [Character]
    let line: Int
    let column: Int
    var i = 0

    var atEnd: Bool { i >= chars.count }

    mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }

    func fail(_ message: String) -> YAMLReader.Failure { YAMLReader.Failure(message: message, line: line, column: column + i) }

    mutating func value() throws(YAMLReader.Failure) -> LocatedJSON {
        skipSpaces()
        let start = column + i
        guard i < chars.count else { throw fail("a value is missing") }
        switch chars[i] {
        case "[":
            i += 1
            var items: [LocatedJSON] = []
            skipSpaces()
            if i < chars.count, chars[i] == "]" { i += 1; return LocatedJSON(value: .array([]), line: line, column: start, children: []) }
            while true {
                items.append(try value())
                skipSpaces()
                guard i < chars.count else { throw fail("the flow sequence is not closed on its line") }
                if chars[i] == "," { i += 1; skipSpaces(); if i < chars.count, chars[i] == "]" { i += 1; break }; continue }
                if chars[i] == "]" { i += 1; break }
                throw fail("expected ',' or ']'")
            }
            return LocatedJSON(value: .array(items.map(\.value)), line: line, column: start, children: items)
        case "{":
            i += 1
            var members: [(key: String, value: JSONValue)] = []
            var children: [LocatedJSON] = []
            skipSpaces()
            if i < chars.count, chars[i] == "}" { i += 1; return LocatedJSON(value: .object([]), line: line, column: start, children: []) }
            while true {
                skipSpaces()
                let key = try scalar(stop: [":", ",", "}"])
                skipSpaces()
                var value = LocatedJSON(value: .null, line: line, column: column + i, children: [])
                if i < chars.count, chars[i] == ":" {
                    i += 1
                    value = try self.value()
                }
                members.append((key.value.substitutionText, value.value))
                children.append(value)
                skipSpaces()
                guard i < chars.count else { throw fail("the flow mapping is not closed on its line") }
                if chars[i] == "," { i += 1; continue }
                if chars[i] == "}" { i += 1; break }
                throw fail("expected ',' or '}'")
            }
            return LocatedJSON(value: .object(members), line: line, column: start, children: children)
        default:
            return try scalar(stop: [",", "]", "}"])
        }
    }

    mutating func scalar(stop: Set<Character>) throws(YAMLReader.Failure) -> LocatedJSON {
        let start = column + i
        if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
            let quote = chars[i]
            i += 1
            var out = ""
            while i < chars.count, chars[i] != quote {
                if quote == "\"", chars[i] == "\\", i + 1 < chars.count {
                    i += 1
                    switch chars[i] {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    default: out.append(chars[i])
                    }
                } else if quote == "'", chars[i] == "'", i + 1 < chars.count, chars[i + 1] == "'" {
                    out.append("'")
                    i += 1
                } else {
                    out.append(chars[i])
                }
                i += 1
            }
            guard i < chars.count else { throw fail("the quoted string is not closed") }
            i += 1
            return LocatedJSON(value: .string(out), line: line, column: start, children: [])
        }
        var text = ""
        while i < chars.count, !stop.contains(chars[i]) {
            if chars[i] == ":", stop.contains(":") == false, i + 1 < chars.count, chars[i + 1] == " " { break }
            text.append(chars[i])
            i += 1
        }
        return LocatedJSON(value: YAMLReader.typed(text.trimmingWhitespace()), line: line, column: start, children: [])
    }
}
