import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Captures and asserts of a Hurl entry: `name: query filters…` and `query filters… [not]
/// predicate [value]`, read into `ResponseChecks` (queries, filters and predicates as Hurl
/// documents them). A part reqtop cannot evaluate (xpath, certificates, dates) is refused
/// with its column: the caller refuses the entry.
extension HurlLine {
    mutating func query() throws(Failure) -> CheckQuery {
        skipSpaces()
        let start = i
        let name = word()
        let kind: CheckQuery.Kind
        switch name {
        case "status": kind = .status
        case "version": kind = .version
        case "url": kind = .url
        case "body": kind = .body
        case "bytes": kind = .bytes
        case "sha256": kind = .sha256
        case "md5": kind = .md5
        case "duration": kind = .duration
        case "header": kind = .header(try stringArgument("header"))
        case "cookie": kind = .cookie(try stringArgument("cookie"))
        case "jsonpath":
            let path = try stringArgument("jsonpath")
            if !path.containsTemplateOpening {
                do { _ = try JSONPathQuery(path) } catch { throw fail(error.message, at: start + 1) }
            }
            kind = .jsonpath(path)
        case "regex": kind = .regex(try patternArgument("regex").text)
        case "variable": kind = .variable(try stringArgument("variable"))
        case "xpath", "certificate", "ip", "redirects":
            throw refuse("\(name) queries are not evaluated by reqtop (\(name == "xpath" ? "no XML/HTML engine" : "not recorded")): "
                       + "this entry is not sent", at: start + 1)
        case "": throw fail("expected a query (status, header, jsonpath, body…)")
        default: throw fail("\(quoting: name) is not a Hurl query (status, version, url, header, cookie, body, bytes, jsonpath, regex, variable, duration, sha256, md5)",
                            at: start + 1)
        }
        return CheckQuery(kind: kind, text: String(chars[start..<i]))
    }

    /// Filters until something that is not one.
    mutating func filters() throws(Failure) -> [CheckFilter] {
        var out: [CheckFilter] = []
        while true {
            skipSpaces()
            let start = i
            let name = word()
            let filter: CheckFilter
            switch name {
            case "count": filter = .count
            case "first": filter = .first
            case "last": filter = .last
            case "toInt": filter = .toInt
            case "toFloat": filter = .toFloat
            case "toString": filter = .toString
            case "urlDecode": filter = .urlDecode
            case "urlEncode": filter = .urlEncode
            case "htmlEscape": filter = .htmlEscape
            case "htmlUnescape": filter = .htmlUnescape
            case "base64Decode": filter = .base64Decode
            case "base64Encode": filter = .base64Encode
            case "base64UrlSafeDecode": filter = .base64URLSafeDecode
            case "base64UrlSafeEncode": filter = .base64URLSafeEncode
            case "toHex": filter = .toHex
            case "utf8Decode": filter = .utf8Decode
            case "utf8Encode": filter = .utf8Encode
            case "nth":
                skipSpaces()
                let numberStart = i
                if peek == "-" { i += 1 }
                while let c = peek, c.isASCII, c.isNumber { i += 1 }
                guard let n = Int(String(chars[numberStart..<i])) else { throw fail("nth takes an index") }
                filter = .nth(n)
            case "regex": filter = .regex(try patternArgument("regex").text)
            case "replace", "replaceRegex":
                let old = try patternArgument("replace")
                let new = try stringArgument("replace")
                filter = .replace(old.text, with: new, isRegex: old.isRegex || name == "replaceRegex")
            case "split": filter = .split(try stringArgument("split"))
            case "decode": filter = .decode(try stringArgument("decode"))
            case "jsonpath": filter = .jsonpath(try stringArgument("jsonpath"))
            case "urlQueryParam": filter = .urlQueryParam(try stringArgument("urlQueryParam"))
            case "xpath", "toDate", "format", "daysAfterNow", "daysBeforeNow", "dateFormat":
                throw refuse("the \(name) filter is not evaluated by reqtop (\(name == "xpath" ? "no XML/HTML engine" : "no dates")): this entry is not sent",
                           at: start + 1)
            default:
                i = start
                return out
            }
            out.append(filter)
        }
    }

    /// `[not] predicate [value]`.
    mutating func predicate() throws(Failure) -> CheckPredicate {
        skipSpaces()
        var negated = false
        let save = i
        if word() == "not" { negated = true } else { i = save }
        skipSpaces()
        let start = i
        var op: CheckPredicate.Operator?
        for symbol in ["==", "!=", ">=", "<=", ">", "<"] where eat(symbol) {
            op = CheckPredicate.Operator(rawValue: symbol)
            break
        }
        if op == nil {
            let name = word()
            let aliases: [String: CheckPredicate.Operator] = [
                "equals": .equal, "notEquals": .notEqual, "greaterThan": .greater, "greaterThanOrEquals": .greaterOrEqual,
                "lessThan": .less, "lessThanOrEquals": .lessOrEqual, "includes": .includes, "isCollection": .isCollection,
            ]
            if name == "isDate" {
                throw refuse("isDate is not evaluated by reqtop (no date values): this entry is not sent", at: start + 1)
            }
            guard let found = CheckPredicate.Operator(rawValue: name) ?? aliases[name] else {
                throw fail(name.isEmpty ? "expected a predicate (==, !=, >, contains, matches, exists, isInteger…)"
                           : "\(quoting: name) is not a Hurl predicate or filter", at: start + 1)
            }
            op = found
        }
        guard let op else { throw fail("expected a predicate") }
        var operand: CheckPredicate.Operand?
        if op.takesValue {
            skipSpaces()
            operand = try predicateValue()
        }
        try expectLineEnd()
        return CheckPredicate(negated: negated, op: op, operand: operand)
    }

    mutating func predicateValue() throws(Failure) -> CheckPredicate.Operand {
        guard let c = peek else { throw fail("expected a value") }
        if c == "\"" {
            let text = try quoted()
            return text.containsTemplateOpening ? .template(text) : .value(.string(text))
        }
        if c == "`" { return .value(.string(try backtickString())) }
        if c == "/" { return .regex(try regex()) }
        if c == "{", i + 1 < chars.count, chars[i + 1] == "{" {
            let template = try self.template()
            return .variable(String(template.dropFirst(2).dropLast(2)).trimmingWhitespace())
        }
        if let bytes = try encodedBytes() { return .value(.bytes(bytes)) }
        if eat("file,") { throw refuse("file values are not read by reqtop's asserts: this entry is not sent") }
        let start = i
        let text = word()
        switch text {
        case "true": return .value(.bool(true))
        case "false": return .value(.bool(false))
        case "null": return .value(.null)
        default: break
        }
        // Numbers (with a sign): `word` stopped at '-' or '+' only when they lead.
        i = start
        while let c = peek, c.isNumber || c == "-" || c == "+" || c == "." || c == "e" || c == "E" { i += 1 }
        let number = String(chars[start..<i])
        if let n = Int(number) { return .value(.integer(n)) }
        if number.containsBytes("."), let n = Double(number) { return .value(.float(n)) }
        throw fail("expected a value (\"string\", number, true, false, null, {{variable}}, /regex/, hex,…; or base64,…;)", at: start + 1)
    }
}
