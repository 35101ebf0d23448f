import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The test an assert applies to its query's value (Hurl's predicates), possibly negated.
public struct CheckPredicate: Sendable, Hashable {
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<="
        case startsWith, endsWith, contains, includes, matches, exists
        case isBoolean, isCollection, isEmpty, isFloat, isInteger, isIsoDate, isNumber, isString, isList, isObject
        case isIpv4, isIpv6, isUuid

        /// Whether it takes a value.
        var takesValue: Bool {
            switch self {
            case .equal, .notEqual, .greater, .greaterOrEqual, .less, .lessOrEqual, .startsWith, .endsWith, .contains, .includes, .matches: true
            default: false
            }
        }
    }

    /// The value a predicate compares with.
    public enum Operand: Sendable, Hashable {
        case value(CheckValue)
        /// A quoted string with `{{variables}}`: a string once substituted.
        case template(String)
        /// A bare `{{name}}`: the variable's value, typed.
        case variable(String)
        /// `/pattern/`.
        case regex(String)
    }

    public var negated: Bool
    public var op: Operator
    public var operand: Operand?

    public init(negated: Bool, op: Operator, operand: Operand?) {
        self.negated = negated
        self.op = op
        self.operand = operand
    }

    /// Nil when `actual` satisfies it, else why not.
    func check(_ actual: CheckValue?, substitute: (String) throws -> String) throws -> String? {
        var expected: CheckValue?
        var pattern: String?
        switch operand {
        case .value(let value)?: expected = value
        case .template(let text)?: expected = .string(try substitute(text))
        case .variable(let name)?: expected = CheckValue(variableText: try substitute("{{\(name)}}"))
        case .regex(let text)?: pattern = text
        case nil: break
        }
        let holds: Bool
        if op == .exists {
            holds = actual != nil
        } else if let actual {
            holds = try Self.test(op, actual, expected, pattern: pattern)
        } else {
            holds = false
        }
        guard holds == negated else { return nil }
        let actualText = actual?.described ?? "none"
        let wanted = (negated ? "not " : "") + op.rawValue + (expected.map { " " + $0.described } ?? pattern.map { " /\($0)/" } ?? "")
        return "actual: \(actualText), expected: \(wanted)"
    }

    static func test(_ op: Operator, _ actual: CheckValue, _ expected: CheckValue?, pattern: String?) throws -> Bool {
        func order() -> ComparisonResult? {
            guard let expected else { return nil }
            if let a = actual.number, let b = expected.number { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
            if case let .string(a) = actual, case let .string(b) = expected { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
            return nil
        }
        switch op {
        case .equal: return expected.map { actual == $0 } ?? false
        case .notEqual: return expected.map { actual != $0 } ?? true
        case .greater: return order() == .orderedDescending
        case .greaterOrEqual: return order().map { $0 != .orderedAscending } ?? false
        case .less: return order() == .orderedAscending
        case .lessOrEqual: return order().map { $0 != .orderedDescending } ?? false
        case .startsWith, .endsWith, .contains:
            switch (actual, expected) {
            case let (.string(a), .string(b)?):
                return op == .startsWith ? a.hasPrefix(b) : op == .endsWith ? a.hasSuffix(b) : a.containsBytes(b)
            case let (.bytes(a), .bytes(b)?):
                return op == .startsWith ? a.starts(with: b) : op == .endsWith ? a.suffix(b.count) == b : (b.isEmpty || ByteSearch.firstOffset(of: b, in: a) != nil)
            case let (.list(items), value?) where op == .contains: return items.contains(value)
            default: return false
            }
        case .includes:
            guard case let .list(items) = actual, let expected else { return false }
            return items.contains(expected)
        case .matches:
            guard case let .string(text) = actual else { return false }
            let source: String
            if let pattern { source = pattern } else if case let .string(p)? = expected { source = p } else { return false }
            guard let regex = CheckRegex.make(source) else { throw CheckError("\(quoting: source) is not a regular expression") }
            return text.firstMatch(of: regex) != nil
        case .exists: return true
        case .isBoolean: if case .bool = actual { return true } else { return false }
        case .isCollection:
            switch actual {
            case .list, .object, .bytes: return true
            default: return false
            }
        case .isEmpty:
            switch actual {
            case .list(let l): return l.isEmpty
            case .object(let o): return o.isEmpty
            case .string(let s): return s.isEmpty
            case .bytes(let b): return b.isEmpty
            default: return false
            }
        case .isFloat: if case .float = actual { return true } else { return false }
        case .isInteger: if case .integer = actual { return true } else { return false }
        case .isNumber: return actual.number != nil
        case .isString: if case .string = actual { return true } else { return false }
        case .isList: if case .list = actual { return true } else { return false }
        case .isObject: if case .object = actual { return true } else { return false }
        case .isIsoDate:
            guard case let .string(s) = actual else { return false }
            return s.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/#.matchingSemantics(.unicodeScalar)) != nil
        case .isIpv4, .isIpv6:
            guard case let .string(s) = actual else { return false }
            var buffer = [UInt8](repeating: 0, count: 16)
            return inet_pton(op == .isIpv4 ? AF_INET : AF_INET6, s, &buffer) == 1
        case .isUuid:
            guard case let .string(s) = actual else { return false }
            return s.wholeMatch(of: #/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#) != nil
        }
    }
}
