import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension BrunoReader {
    /// The request of one `.bru` file.
    mutating func request(_ bru: BruFile, folders: [String], inherited: BrunoLevel) {
        let location = { (line: Int) in SourceLocation(file: bru.path, line: line, column: 1) }
        guard let methodBlock = bru.blocks.first(where: { BrunoImporter.methods.contains($0.name) }) else {
            if bru.block("meta")?.entries.first(where: { $0.key == "type" })?.value != "collection" {
                warnings.append(RequestListWarning(location: location(1), message: "no request in this file (no get { … }, post { … } block): skipped"))
            }
            return
        }
        func value(_ key: String) -> String? { methodBlock.entries.first { $0.key == key }?.value }
        let level = self.level(bru, over: inherited)
        let name = bru.block("meta")?.entries.first { $0.key == "name" }?.value ?? bru.path.lastPathComponent.deletingPathExtension
        var url = value("url") ?? ""
        for param in bru.block("params:path")?.entries ?? [] where param.enabled {
            url = url.replacingEvery(":" + param.key, with: param.value)
        }
        var spec = RequestSpec(name: (folders + [name]).joined(separator: " / "), method: methodBlock.name.uppercased(), url: url,
                               location: location(methodBlock.line))
        spec.headers = level.headers
        applyAuth(mode: value("auth") ?? "none", bru: bru, inherited: inherited, to: &spec)
        spec.body = body(mode: value("body") ?? "none", bru: bru, headers: &spec.headers, requestName: spec.name ?? name)
        // A folder's and the request's own variables are substituted into it (Bruno ranks them above the environment).
        for (key, text) in level.variables.reversed() {
            spec.url = spec.url.replacingEvery("{{\(key)}}", with: text)
            spec.headers = spec.headers.map { HTTPHeader(name: $0.name, value: $0.value.replacingEvery("{{\(key)}}", with: text)) }
            if case .text(let body)? = spec.body { spec.body = .text(body.replacingEvery("{{\(key)}}", with: text)) }
        }
        spec.scripts = level.preScripts + level.postScripts
        spec.checks = checks(bru)
        specs.append(spec)
    }

    mutating func applyAuth(mode: String, bru: BruFile, inherited: BrunoLevel, to spec: inout RequestSpec) {
        var mode = mode
        var source = bru
        if mode == "inherit" {
            guard let auth = inherited.auth else { return }
            (mode, source) = auth
        }
        func entry(_ block: String, _ key: String) -> String { source.block(block)?.entries.first { $0.key == key }?.value ?? "" }
        switch mode {
        case "none": break
        case "basic": spec.headers.append(.basicAuthorization(user: entry("auth:basic", "username"), password: entry("auth:basic", "password")))
        case "bearer": spec.headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(entry("auth:bearer", "token"))"))
        case "apikey":
            let key = entry("auth:apikey", "key"), value = entry("auth:apikey", "value")
            if entry("auth:apikey", "placement") == "queryparams" {
                spec.url += (spec.url.containsBytes("?") ? "&" : "?") + key + "=" + value
            } else {
                spec.headers.append(HTTPHeader(name: key, value: value))
            }
        default:
            let line = source.block("auth:\(mode)")?.line ?? source.block("auth")?.line ?? 1
            warnings.append(RequestListWarning(location: SourceLocation(file: source.path, line: line, column: 1),
                                               message: "request \(quoting: spec.name ?? "") : its \(mode) auth is not applied (reqtop applies basic, bearer "
                                                   + "and API key auth; give the header yourself); sent without it"))
        }
    }

    mutating func body(mode: String, bru: BruFile, headers: inout [HTTPHeader], requestName: String) -> RequestBody? {
        func text(_ block: String) -> String? { bru.block(block)?.text }
        switch mode {
        case "none": return nil
        case "json", "text", "xml", "sparql":
            let types = ["json": "application/json", "text": "text/plain", "xml": "application/xml", "sparql": "application/sparql-query"]
            Self.addContentType(types[mode]!, to: &headers)
            return text("body:\(mode)").map(RequestBody.text)
        case "formUrlEncoded":
            Self.addContentType("application/x-www-form-urlencoded", to: &headers)
            return .form(bru.block("body:form-urlencoded")?.entries.filter(\.enabled).map { FormField(name: $0.key, value: $0.value) } ?? [])
        case "multipartForm":
            let fields = bru.block("body:multipart-form")?.entries.filter(\.enabled).map { entry -> ExportedFormField in
                var value = entry.value
                var type: String?
                if let range = value.byteRange(of: " @contentType(") {
                    type = String(value[range.upperBound...].prefix { $0 != ")" })
                    value = String(value[..<range.lowerBound])
                }
                if value.hasPrefix("@file("), value.hasSuffix(")") {
                    let file = String(value.dropFirst(6).dropLast()).split(separator: "|").first.map(String.init) ?? ""
                    return ExportedFormField(name: entry.key, value: "", file: file, contentType: type)
                }
                return ExportedFormField(name: entry.key, value: value, file: nil, contentType: type)
            } ?? []
            return multipart(fields, headers: &headers)
        case "graphql":
            Self.addContentType("application/json", to: &headers)
            var out: [UInt8] = []
            JSONEscaping.appendQuoted(text("body:graphql") ?? "", to: &out)
            let variables = text("body:graphql:vars")?.trimmingWhitespaceAndNewlines()
            return .text("{\"query\":" + String(decoding: out, as: UTF8.self)
                         + (variables.map { $0.isEmpty ? "" : ",\"variables\":" + $0 } ?? "") + "}")
        case "file":
            guard let entry = bru.block("body:file")?.entries.first(where: \.enabled), entry.value.hasPrefix("@file(") else { return nil }
            let file = String(entry.value.dropFirst(6).prefix { $0 != ")" })
            if let range = entry.value.byteRange(of: "@contentType(") {
                Self.addContentType(String(entry.value[range.upperBound...].prefix { $0 != ")" }), to: &headers)
            }
            return .file(path: file, resolvedAgainst: root)
        default:
            warnings.append(RequestListWarning(location: SourceLocation(file: bru.path, line: 1, column: 1),
                                               message: "request \(quoting: requestName): a \(mode) body is not read by reqtop; sent without a body"))
            return nil
        }
    }

    /// `vars:post-response` entries reqtop can evaluate as captures (`res.body.a[0].b`,
    /// `res.headers.name`, `res.status`) and `assert` entries as checks; the others are said.
    mutating func checks(_ bru: BruFile) -> ResponseChecks? {
        var checks = ResponseChecks()
        for entry in bru.block("vars:post-response")?.entries ?? [] where entry.enabled {
            let location = SourceLocation(file: bru.path, line: entry.line, column: 3)
            guard let query = Self.query(entry.value) else {
                warnings.append(RequestListWarning(location: location, message: "vars:post-response \(entry.key): \(quoting: entry.value) is not a "
                                                       + "res.body…/res.headers…/res.status expression reqtop evaluates; not set"))
                continue
            }
            checks.captures.append(.init(name: entry.key, query: query, filters: [], text: "\(entry.key): \(entry.value)", location: location))
        }
        for entry in bru.block("assert")?.entries ?? [] where entry.enabled {
            let location = SourceLocation(file: bru.path, line: entry.line, column: 3)
            guard let query = Self.query(entry.key), let predicate = Self.predicate(entry.value) else {
                warnings.append(RequestListWarning(location: location, message: "assert \(entry.key): \(entry.value) is not evaluated by reqtop (it reads "
                                                       + "res.status/res.body…/res.headers… with eq, neq, gt, gte, lt, lte, contains, "
                                                       + "startsWith, endsWith, matches, isNumber, isString, isBoolean, isArray, isDefined…)"))
                continue
            }
            checks.asserts.append(.init(query: query, filters: [], predicate: predicate, text: "\(entry.key): \(entry.value)", location: location))
        }
        return checks.isEmpty ? nil : checks
    }

    /// `res.status`, `res.body.a.b[0]`, `res.headers.name` (or `res.headers['name']`, `res.getHeader('name')`).
    static func query(_ text: String) -> CheckQuery? {
        let t = text.trimmingWhitespace()
        if t == "res.status" || t == "res.getStatus()" { return CheckQuery(kind: .status, text: t) }
        if t == "res.body" || t == "res.getBody()" { return CheckQuery(kind: .jsonpath("$"), text: t) }
        if t.hasPrefix("res.body.") || t.hasPrefix("res.body[") {
            let path = "$" + t.dropFirst("res.body".count)
            guard (try? JSONPathQuery(path)) != nil else { return nil }
            return CheckQuery(kind: .jsonpath(path), text: t)
        }
        for prefix in ["res.headers.", "res.headers['", "res.headers[\"", "res.getHeader('", "res.getHeader(\""] where t.hasPrefix(prefix) {
            let name = t.dropFirst(prefix.count).prefix { $0 != "'" && $0 != "\"" && $0 != "]" && $0 != ")" }
            return CheckQuery(kind: .header(String(name)), text: t)
        }
        return nil
    }

    /// `eq 200`, `neq "x"`, `isNumber`… as a predicate.
    static func predicate(_ text: String) -> CheckPredicate? {
        let t = text.trimmingWhitespace()
        let op = String(t.prefix { !$0.isWhitespace })
        let argument = t.dropFirst(op.count).trimmingWhitespace()
        func operand() -> CheckPredicate.Operand? {
            if argument.isEmpty { return nil }
            if argument.hasPrefix("{{"), argument.hasSuffix("}}") { return .variable(String(argument.dropFirst(2).dropLast(2))) }
            if let first = argument.first, first == "\"" || first == "'", argument.count >= 2, argument.last == first {
                let inner = String(argument.dropFirst().dropLast())
                return inner.containsBytes("{{") ? .template(inner) : .value(.string(inner))
            }
            return .value(CheckValue(variableText: argument))
        }
        let table: [String: (CheckPredicate.Operator, Bool)] = [
            "eq": (.equal, false), "neq": (.notEqual, false), "gt": (.greater, false), "gte": (.greaterOrEqual, false), "lt": (.less, false),
            "lte": (.lessOrEqual, false), "contains": (.contains, false), "notContains": (.contains, true), "startsWith": (.startsWith, false),
            "endsWith": (.endsWith, false), "matches": (.matches, false), "notMatches": (.matches, true),
        ]
        if let (op, negated) = table[op] {
            guard let value = operand() else { return nil }
            return CheckPredicate(negated: negated, op: op, operand: value)
        }
        let unary: [String: (CheckPredicate.Operator, Bool)] = [
            "isNumber": (.isNumber, false), "isString": (.isString, false), "isBoolean": (.isBoolean, false), "isArray": (.isList, false),
            "isDefined": (.exists, false), "isUndefined": (.exists, true), "isEmpty": (.isEmpty, false), "isNotEmpty": (.isEmpty, true),
        ]
        if let (op, negated) = unary[op], argument.isEmpty { return CheckPredicate(negated: negated, op: op, operand: nil) }
        if op == "isNull", argument.isEmpty { return CheckPredicate(negated: false, op: .equal, operand: .value(.null)) }
        // A bare value is `eq` (Bruno's default operator).
        if !t.isEmpty, table[op] == nil, unary[op] == nil, !op.hasPrefix("is"), !t.containsBytes("(") {
            return predicate("eq " + t)
        }
        return nil
    }
}

/// A Bruno collection's environments: `environments/NAME.bru` (`vars { … }`, `vars:secret [ … ]`).
public enum BrunoEnvironments {
    /// The variables of environment `name` of the Bruno collection `path` is in, or nil when `path`
    /// is in no Bruno collection. Secret names are listed (their values come from elsewhere).
    public static func load(besides path: String, name: String) throws(RequestListError) -> [String: String]? {
        guard let root = BrunoImporter.collectionRoot(of: path) else { return nil }
        let folder = root.appendingPathComponent("environments")
        let file = folder.appendingPathComponent("\(name).bru")
        guard FileManager.default.fileExists(atPath: file) else {
            let available = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".bru") }
                .map { $0.deletingPathExtension }.sorted()
            throw RequestListError(file: folder, line: 0, column: 0,
                                   message: "no environment named \(quoting: name) in this Bruno collection (available: "
                                       + (available.isEmpty ? "none" : available.joined(separator: ", ")) + ")", lineText: "")
        }
        let bru = try BrunoReader.read(file)
        var values: [String: String] = [:]
        for entry in bru.block("vars")?.entries ?? [] where entry.enabled { values[entry.key] = entry.value }
        return values
    }
}
