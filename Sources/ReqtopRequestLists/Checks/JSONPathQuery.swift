import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// JSONPath as Hurl's `jsonpath` query reads it (RFC 9535 with the older `?(…)` filters): names
/// (`.a`, `['a']`), indices (negative from the end), wildcards, slices, unions, descendants (`..`)
/// and filters (`?(@.price < 10 && @.tag == 'x')`). A definite path (names and indices only) gives
/// one value or none; any other gives a list.
public struct JSONPathQuery: Sendable, Hashable, CustomStringConvertible {
    public struct Invalid: Error, Sendable { public var message: String }

    indirect enum Selector: Sendable, Hashable {
        case name(String)
        case index(Int)
        case wildcard
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(Expression)
    }

    struct Segment: Sendable, Hashable {
        var selectors: [Selector]
        var descendant: Bool
    }

    indirect enum Expression: Sendable, Hashable {
        case and(Expression, Expression)
        case or(Expression, Expression)
        case not(Expression)
        case exists(Operand)
        case compare(Operand, String, Operand)
    }

    enum Operand: Sendable, Hashable {
        case current([Segment])
        case root([Segment])
        case literal(JSONValue)
    }

    public let description: String
    let segments: [Segment]

    /// Whether the path names one place (no wildcard, slice, filter, union or descendant).
    public var isDefinite: Bool {
        segments.allSatisfy { segment in
            guard !segment.descendant, segment.selectors.count == 1 else { return false }
            switch segment.selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }

    public init(_ text: String) throws(Invalid) {
        description = text
        var parser = Parser(chars: Array(text), text: text)
        parser.skipSpaces()
        guard parser.eat("$") else { throw Invalid(message: "a JSONPath starts with '$': \(quoting: text)") }
        segments = try parser.segments(stopAt: [])
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.invalid("unexpected '\(parser.chars[parser.i])'") }
    }

    /// The value (definite path) or the list of values the path selects in `document`; nil when a
    /// definite path selects nothing.
    public func evaluate(_ document: JSONValue) -> CheckValue? {
        let nodes = Self.apply(segments, to: [document], root: document)
        if isDefinite { return nodes.first.map(CheckValue.init) }
        return .list(nodes.map(CheckValue.init))
    }

    static func apply(_ segments: [Segment], to start: [JSONValue], root: JSONValue) -> [JSONValue] {
        var nodes = start
        for segment in segments {
            var next: [JSONValue] = []
            for node in nodes {
                let targets = segment.descendant ? descendants(of: node) : [node]
                for target in targets {
                    for selector in segment.selectors { select(selector, in: target, root: root, into: &next) }
                }
            }
            nodes = next
        }
        return nodes
    }

    /// A node and everything below it, in document order.
    static func descendants(of node: JSONValue) -> [JSONValue] {
        var out: [JSONValue] = [node]
        switch node {
        case .array(let items): for item in items { out += descendants(of: item) }
        case .object(let members): for member in members { out += descendants(of: member.value) }
        default: break
        }
        return out
    }

    static func select(_ selector: Selector, in node: JSONValue, root: JSONValue, into out: inout [JSONValue]) {
        switch (selector, node) {
        case let (.name(name), .object):
            if let value = node[name] { out.append(value) }
        case let (.index(index), .array(items)):
            let i = index < 0 ? items.count + index : index
            if items.indices.contains(i) { out.append(items[i]) }
        case (.wildcard, .array(let items)): out += items
        case (.wildcard, .object(let members)): out += members.map(\.value)
        case let (.slice(start, end, step), .array(items)):
            let step = step ?? 1
            guard step != 0 else { return }
            let n = items.count
            func normalized(_ value: Int?, _ fallback: Int) -> Int {
                guard let value else { return fallback }
                return value < 0 ? max(n + value, step > 0 ? 0 : -1) : min(value, step > 0 ? n : n - 1)
            }
            var i = normalized(start, step > 0 ? 0 : n - 1)
            let stop = normalized(end, step > 0 ? n : -1)
            while step > 0 ? i < stop : i > stop {
                if items.indices.contains(i) { out.append(items[i]) }
                i += step
            }
        case let (.filter(expression), .array(items)):
            out += items.filter { test(expression, $0, root: root) }
        case let (.filter(expression), .object(members)):
            out += members.map(\.value).filter { test(expression, $0, root: root) }
        default: break
        }
    }

    static func test(_ expression: Expression, _ current: JSONValue, root: JSONValue) -> Bool {
        switch expression {
        case let .and(a, b): return test(a, current, root: root) && test(b, current, root: root)
        case let .or(a, b): return test(a, current, root: root) || test(b, current, root: root)
        case let .not(a): return !test(a, current, root: root)
        case let .exists(operand): return !values(operand, current, root: root).isEmpty
        case let .compare(left, op, right):
            let a = values(left, current, root: root), b = values(right, current, root: root)
            guard a.count <= 1, b.count <= 1 else { return false }
            return compare(a.first, op, b.first)
        }
    }

    static func values(_ operand: Operand, _ current: JSONValue, root: JSONValue) -> [JSONValue] {
        switch operand {
        case .current(let segments): apply(segments, to: [current], root: root)
        case .root(let segments): apply(segments, to: [root], root: root)
        case .literal(let value): [value]
        }
    }

    /// RFC 9535 comparison: a missing value equals only a missing value; numbers and strings order.
    static func compare(_ a: JSONValue?, _ op: String, _ b: JSONValue?) -> Bool {
        func equal(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case let (a?, b?): return CheckValue(a) == CheckValue(b)
            default: return false
            }
        }
        func less(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
            guard let a, let b else { return false }
            switch (CheckValue(a), CheckValue(b)) {
            case let (.string(x), .string(y)): return x < y
            case let (x, y): if let x = x.number, let y = y.number { return x < y } else { return false }
            }
        }
        switch op {
        case "==": return equal(a, b)
        case "!=": return !equal(a, b)
        case "<": return less(a, b)
        case ">": return less(b, a)
        case "<=": return less(a, b) || equal(a, b)
        case ">=": return less(b, a) || equal(a, b)
        default: return false
        }
    }

    private struct Parser {
        let chars: [Character]
        let text: String
        var i = 0

        var atEnd: Bool { i >= chars.count }
        var peek: Character? { atEnd ? nil : chars[i] }

        func invalid(_ message: String) -> Invalid {
            Invalid(message: "\(message) at position \(i + 1) of JSONPath \(quoting: text)")
        }

        mutating func eat(_ c: Character) -> Bool {
            guard peek == c else { return false }
            i += 1
            return true
        }

        mutating func eat(_ s: String) -> Bool {
            let cs = Array(s)
            guard i + cs.count <= chars.count, Array(chars[i..<(i + cs.count)]) == cs else { return false }
            i += cs.count
            return true
        }

        mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { i += 1 } }

        /// Segments until the end or a character in `stop` (inside a filter: `)`, `]`, an operator…).
        mutating func segments(stopAt stop: Set<Character>) throws(Invalid) -> [Segment] {
            var out: [Segment] = []
            while let c = peek, !stop.contains(c) {
                if eat("..") {
                    if eat("*") { out.append(Segment(selectors: [.wildcard], descendant: true)); continue }
                    if peek == "[" { out.append(Segment(selectors: try bracket(), descendant: true)); continue }
                    out.append(Segment(selectors: [.name(try name())], descendant: true))
                } else if eat(".") {
                    if eat("*") { out.append(Segment(selectors: [.wildcard], descendant: false)); continue }
                    out.append(Segment(selectors: [.name(try name())], descendant: false))
                } else if c == "[" {
                    out.append(Segment(selectors: try bracket(), descendant: false))
                } else {
                    break
                }
            }
            return out
        }

        /// A member name after `.`: letters, digits, `_`, `-`, `$`, `@` and non-ASCII.
        mutating func name() throws(Invalid) -> String {
            let start = i
            while let c = peek, c.isLetter || c.isNumber || c == "_" || c == "-" || c == "$" || c == "@" || !c.isASCII { i += 1 }
            guard i > start else { throw invalid("expected a member name") }
            return String(chars[start..<i])
        }

        mutating func bracket() throws(Invalid) -> [Selector] {
            guard eat("[") else { throw invalid("expected '['") }
            var selectors: [Selector] = []
            repeat {
                skipSpaces()
                selectors.append(try selector())
                skipSpaces()
            } while eat(",")
            guard eat("]") else { throw invalid("expected ']'") }
            return selectors
        }

        mutating func selector() throws(Invalid) -> Selector {
            if eat("*") { return .wildcard }
            if let q = peek, q == "'" || q == "\"" { return .name(try quoted()) }
            if eat("?") {
                skipSpaces()
                return .filter(try orExpression())
            }
            let start = try integer()
            skipSpaces()
            guard eat(":") else {
                guard let start else { throw invalid("expected a name, an index, '*', a slice or a filter") }
                return .index(start)
            }
            skipSpaces()
            let end = try integer()
            skipSpaces()
            var step: Int?
            if eat(":") {
                skipSpaces()
                step = try integer()
            }
            return .slice(start: start, end: end, step: step)
        }

        mutating func integer() throws(Invalid) -> Int? {
            let start = i
            _ = eat("-")
            while let c = peek, c.isASCII, c.isNumber { i += 1 }
            guard i > start else { return nil }
            guard let n = Int(String(chars[start..<i])) else { throw invalid("not an integer") }
            return n
        }

        mutating func quoted() throws(Invalid) -> String {
            let quote = chars[i]
            i += 1
            var out = ""
            while let c = peek, c != quote {
                i += 1
                if c == "\\", let next = peek {
                    i += 1
                    switch next {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{c}")
                    case "u":
                        guard i + 4 <= chars.count, let code = UInt32(String(chars[i..<(i + 4)]), radix: 16), let scalar = Unicode.Scalar(code) else {
                            throw invalid("bad \\u escape")
                        }
                        i += 4
                        out.unicodeScalars.append(scalar)
                    default: out.append(next)
                    }
                } else {
                    out.append(c)
                }
            }
            guard eat(quote) else { throw invalid("unclosed string") }
            return out
        }

        mutating func orExpression() throws(Invalid) -> Expression {
            var left = try andExpression()
            while true {
                skipSpaces()
                guard eat("||") else { return left }
                left = .or(left, try andExpression())
            }
        }

        mutating func andExpression() throws(Invalid) -> Expression {
            var left = try unary()
            while true {
                skipSpaces()
                guard eat("&&") else { return left }
                left = .and(left, try unary())
            }
        }

        mutating func unary() throws(Invalid) -> Expression {
            skipSpaces()
            if peek == "!", i + 1 < chars.count, chars[i + 1] != "=" {
                i += 1
                return .not(try unary())
            }
            if eat("(") {
                let inner = try orExpression()
                skipSpaces()
                guard eat(")") else { throw invalid("expected ')'") }
                return inner
            }
            let left = try operand()
            skipSpaces()
            for op in ["==", "!=", "<=", ">=", "<", ">"] where eat(op) {
                skipSpaces()
                return .compare(left, op, try operand())
            }
            if case .literal = left { throw invalid("a filter compares '@…' with something") }
            return .exists(left)
        }

        mutating func operand() throws(Invalid) -> Operand {
            skipSpaces()
            let stop: Set<Character> = [" ", ")", "]", "=", "!", "<", ">", "&", "|", ","]
            if eat("@") { return .current(try segments(stopAt: stop)) }
            if eat("$") { return .root(try segments(stopAt: stop)) }
            if let q = peek, q == "'" || q == "\"" { return .literal(.string(try quoted())) }
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] where eat(word) { return .literal(value) }
            let start = i
            while let c = peek, c.isNumber || c == "-" || c == "." || c == "e" || c == "E" || c == "+" { i += 1 }
            let number = String(chars[start..<i])
            guard !number.isEmpty, Double(number) != nil else { throw invalid("expected '@', '$', a string, a number, true, false or null") }
            return .literal(.number(number))
        }
    }
}
