/// A JSON syntax error at a 1-based line and column.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int

    /// `line 3, column 14: expected ':'`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A small strict JSON parser that reports where the first error is, so an invalid
/// env file or HAR gets `file:line:col` instead of "the data couldn't be read".
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maxDepth = 512
    /// Whether to record where each value starts (`parseLocated`).
    private let locating: Bool
    /// The line and column of byte `counted`, advanced only forward so positions cost linear time.
    private var counted = 0
    private var line = 1
    private var column = 1

    /// Parses one JSON document (any value at the top level).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parseDocument(text, locating: false).value
    }

    /// Parses one JSON document, recording where each value inside it starts.
    public static func parseLocated(_ text: String) throws(JSONSyntaxError) -> LocatedJSON {
        try parseDocument(text, locating: true)
    }

    private static func parseDocument(_ text: String, locating: Bool) throws(JSONSyntaxError) -> LocatedJSON {
        var parser = JSONParser(bytes: Array(text.utf8), locating: locating)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], locating: Bool) {
        self.bytes = bytes
        self.locating = locating
    }

    private mutating func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        (counted, line, column) = (0, 1, 1) // once per parse: count from the start
        let (line, column) = position(of: offset ?? index)
        return JSONSyntaxError(message: message, line: line, column: column)
    }

    /// Where the current value starts, when locating.
    private mutating func here() -> (line: Int, column: Int) {
        locating ? position(of: index) : (0, 0)
    }

    /// Line and column (in characters) of a byte offset at or after `counted`.
    private mutating func position(of offset: Int) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        var segmentStart = counted
        for i in counted..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            column = 1
            segmentStart = i + 1
        }
        let segment = bytes[segmentStart..<end]
        column += segment.allSatisfy { $0 < 0x80 } ? segment.count : String(decoding: segment, as: UTF8.self).count
        counted = end
        return (line, column)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> LocatedJSON {
        guard let c = current else { throw error("unexpected end of JSON: expected a value") }
        let (line, column) = here()
        func leaf(_ value: JSONValue) -> LocatedJSON { LocatedJSON(value: value, line: line, column: column, children: []) }
        switch c {
        case UInt8(ascii: "{"): return try parseObject(line: line, column: column)
        case UInt8(ascii: "["): return try parseArray(line: line, column: column)
        case UInt8(ascii: "\""): return leaf(.string(try parseString()))
        case UInt8(ascii: "t"): try literal("true"); return leaf(.bool(true))
        case UInt8(ascii: "f"): try literal("false"); return leaf(.bool(false))
        case UInt8(ascii: "n"): try literal("null"); return leaf(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return leaf(try parseNumber())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(c)))': expected a JSON value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard current == expected else { throw error("invalid literal: expected '\(word)'") }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("JSON nested deeper than \(JSONParser.maxDepth) levels") }
    }

    /// An object; each member is located at its key.
    private mutating func parseObject(line: Int, column: Int) throws(JSONSyntaxError) -> LocatedJSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var located: [LocatedJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return LocatedJSON(value: .object([]), line: line, column: column, children: []) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted member name") }
            let keyStart = here()
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value.value))
            if locating {
                located.append(LocatedJSON(value: value.value, line: keyStart.line, column: keyStart.column, children: value.children))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return LocatedJSON(value: .object(members), line: line, column: column, children: located)
            case nil: throw error("unexpected end of JSON: unterminated object")
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(line: Int, column: Int) throws(JSONSyntaxError) -> LocatedJSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        var located: [LocatedJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return LocatedJSON(value: .array([]), line: line, column: column, children: []) }
        while true {
            skipWhitespace()
            let item = try parseValue()
            items.append(item.value)
            if locating { located.append(item) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return LocatedJSON(value: .array(items), line: line, column: column, children: located)
            case nil: throw error("unexpected end of JSON: unterminated array")
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { throw error("invalid number") }
        if first == 0x30 { index += 1 } else { digits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let d = current, d >= 0x30, d <= 0x39 else { throw error("invalid number: expected a digit after '.'") }
            digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let d = current, d >= 0x30, d <= 0x39 else { throw error("invalid number: expected exponent digits") }
            digits()
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() {
        while let c = current, c >= 0x30, c <= 0x39 { index += 1 }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw error("unterminated string", at: start) }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = current else { throw error("unterminated string", at: start) }
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in string", at: index - 2)
                }
            default:
                if c < 0x20 { throw error("control character in string (escape it)", at: index - 1) }
                out.append(c)
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let digit = Character(Unicode.Scalar(c)).hexDigitValue else {
                throw error("invalid \\u escape: expected 4 hex digits")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
           bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        return Array(String(Character(scalar)).utf8)
    }
}
