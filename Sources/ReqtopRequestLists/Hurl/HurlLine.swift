import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading one line of a Hurl file: key-value lines (`name: value`, escapes, `# comments`), and
/// the tokens of captures and asserts. Columns are 1-based, counted in characters.
struct HurlLine {
    let chars: [Character]
    let number: Int
    var i = 0

    init(_ text: String, number: Int) {
        chars = Array(text)
        self.number = number
    }

    struct Failure: Error {
        var message: String
        var column: Int
        /// Well-formed Hurl that reqtop does not do (an `xpath` query…): the entry is refused, not the file.
        var unsupported = false
    }

    var atEnd: Bool { i >= chars.count }
    var peek: Character? { atEnd ? nil : chars[i] }
    var column: Int { i + 1 }

    func fail(_ message: String, at column: Int? = nil) -> Failure { Failure(message: message, column: column ?? self.column) }

    /// Valid Hurl reqtop does not do: the entry is not sent (said with why), the rest of the file runs.
    func refuse(_ message: String, at column: Int? = nil) -> Failure {
        Failure(message: message, column: column ?? self.column, unsupported: true)
    }

    mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { i += 1 } }

    /// Only spaces and a `# comment` are left.
    mutating func atLineEnd() -> Bool {
        skipSpaces()
        return atEnd || peek == "#"
    }

    mutating func expectLineEnd() throws(Failure) {
        guard atLineEnd() else { throw fail("unexpected \(quoting: String(chars[i...]))") }
    }

    mutating func eat(_ word: String) -> Bool {
        let cs = Array(word)
        guard i + cs.count <= chars.count, Array(chars[i..<(i + cs.count)]) == cs else { return false }
        i += cs.count
        return true
    }

    /// A word of letters, digits, `_`, `-`, `.` (a query, filter or predicate name).
    mutating func word() -> String {
        let start = i
        while let c = peek, c.isLetter || c.isNumber || c == "_" || c == "-" || c == "." { i += 1 }
        return String(chars[start..<i])
    }

    /// A `{{…}}` written as is (templates stay for the resolver).
    mutating func template() throws(Failure) -> String {
        let start = i
        i += 2
        while i + 1 < chars.count, !(chars[i] == "}" && chars[i + 1] == "}") { i += 1 }
        guard i + 1 < chars.count else { throw fail("unclosed '{{'", at: start + 1) }
        i += 2
        return String(chars[start..<i])
    }

    /// An escape after `\` in a key, value or quoted string.
    mutating func escape() throws(Failure) -> String {
        let start = i
        guard let c = peek else { throw fail("a '\\' at the end of the line") }
        i += 1
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{c}"
        case "u":
            guard eat("{"), let close = chars[i...].firstIndex(of: "}"),
                  let code = UInt32(String(chars[i..<close]), radix: 16), let scalar = Unicode.Scalar(code) else {
                throw fail("bad unicode escape (write \\u{XXXX})", at: start)
            }
            i = close + 1
            return String(Character(scalar))
        default: return String(c)
        }
    }

    /// `key: value` from the current position: the key up to the first unescaped `:` (or a quoted
    /// key), the value to the end of the line without its `# comment`, escapes decoded.
    mutating func keyValue() throws(Failure) -> (key: String, value: String, valueColumn: Int) {
        skipSpaces()
        var key = ""
        if peek == "\"" {
            key = try quoted()
        } else {
            while let c = peek, c != ":" {
                if c == "{", i + 1 < chars.count, chars[i + 1] == "{" { key += try template(); continue }
                i += 1
                if c == "\\" { key += try escape() } else { key.append(c) }
            }
            key = key.trimmingWhitespace()
        }
        skipSpaces()
        guard peek == ":" else { throw fail("expected 'name: value'") }
        i += 1
        skipSpaces()
        let valueColumn = column
        return (key, try value(), valueColumn)
    }

    /// The rest of the line up to an unescaped `#`, escapes decoded, trailing spaces trimmed.
    mutating func value() throws(Failure) -> String {
        var out = ""
        while let c = peek, c != "#" {
            if c == "{", i + 1 < chars.count, chars[i + 1] == "{" { out += try template(); continue }
            i += 1
            if c == "\\" { out += try escape() } else { out.append(c) }
        }
        while let last = out.last, last == " " || last == "\t" { out.removeLast() }
        return out
    }

    /// A `"…"` string, escapes decoded, `{{templates}}` kept.
    mutating func quoted() throws(Failure) -> String {
        guard peek == "\"" else { throw fail("expected a quoted string") }
        return try delimited(by: "\"", keepingTemplates: true)
    }

    /// A `` `…` `` string.
    mutating func backtickString() throws(Failure) -> String {
        try delimited(by: "`", keepingTemplates: false)
    }

    /// The text from the opening `quote` here to the closing one, escapes decoded.
    private mutating func delimited(by quote: Character, keepingTemplates: Bool) throws(Failure) -> String {
        let start = i
        i += 1
        var out = ""
        while let c = peek, c != quote {
            if keepingTemplates, c == "{", i + 1 < chars.count, chars[i + 1] == "{" { out += try template(); continue }
            i += 1
            if c == "\\" { out += try escape() } else { out.append(c) }
        }
        guard peek == quote else { throw fail(quote == "\"" ? "unclosed string" : "unclosed '\(quote)'", at: start + 1) }
        i += 1
        return out
    }

    /// A `/…/` regular expression (`\/` is a slash).
    mutating func regex() throws(Failure) -> String {
        let start = i
        i += 1
        var out = ""
        while let c = peek, c != "/" {
            i += 1
            if c == "\\", peek == "/" {
                i += 1
                out.append("/")
            } else if c == "\\", let next = peek {
                i += 1
                out.append(c)
                out.append(next)
            } else {
                out.append(c)
            }
        }
        guard peek == "/" else { throw fail("unclosed regular expression", at: start + 1) }
        i += 1
        return out
    }

    /// A string argument: `"…"` or `` `…` ``.
    mutating func stringArgument(_ what: String) throws(Failure) -> String {
        skipSpaces()
        if peek == "\"" { return try quoted() }
        if peek == "`" { return try backtickString() }
        throw fail("\(what) takes a quoted string")
    }

    /// A pattern argument: `/…/` (a regular expression) or a string (`isRegex` false).
    mutating func patternArgument(_ what: String) throws(Failure) -> (text: String, isRegex: Bool) {
        skipSpaces()
        if peek == "/" { return (try regex(), true) }
        return (try stringArgument(what), false)
    }

    /// `base64,…;`, `hex,…;` (or nil when neither starts here).
    mutating func encodedBytes() throws(Failure) -> Data? {
        let start = i
        if eat("base64,") {
            guard let end = chars[i...].firstIndex(of: ";") else { throw fail("base64 bytes end with ';'", at: start + 1) }
            let text = String(chars[i..<end]).filter { !$0.isWhitespace }
            i = end + 1
            guard let data = Data(base64Encoded: text) else { throw fail("not base64", at: start + 1) }
            return data
        }
        if eat("hex,") {
            guard let end = chars[i...].firstIndex(of: ";") else { throw fail("hex bytes end with ';'", at: start + 1) }
            let text = String(chars[i..<end]).filter { !$0.isWhitespace }
            i = end + 1
            guard text.count % 2 == 0, let data = Self.hex(text) else { throw fail("not hexadecimal bytes", at: start + 1) }
            return data
        }
        return nil
    }

    static func hex(_ text: String) -> Data? {
        var data = Data()
        var iterator = text.makeIterator()
        while let a = iterator.next() {
            guard let b = iterator.next(), let byte = UInt8(String([a, b]), radix: 16) else { return nil }
            data.append(byte)
        }
        return data
    }
}
