import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a Hurl file (https://hurl.dev) as a request list that resolves as a `.http` list does.
///
/// Each entry is a request: method and URL, header lines, `[Query]`/`[QueryStringParams]`,
/// `[Form]`/`[FormParams]`, `[Multipart]`/`[MultipartFormData]` (text and `file,…;` parts),
/// `[Cookies]`, `[BasicAuth]`, `[Options]`, and a body (JSON, XML, ```` ``` ```` multiline with
/// an optional `json`/`xml`/`graphql` hint, `` `oneline` ``, `base64,…;`, `hex,…;`, `file,…;`),
/// with the Content-Type Hurl adds for typed bodies when the entry gives none. Its response
/// section becomes `ResponseChecks`: the status line and header lines, `[Captures]` (variables for
/// later entries) and `[Asserts]` as tests, a body to compare. `{{variables}}` come from `--var`
/// (`--variable`), `--variables-file` and `[Options] variable:`. Hurl does not follow redirects
/// unless told (`location: true`), and neither does a Hurl list here.
///
/// A malformed file is an error at its line and column. Valid Hurl that reqtop does not do (an
/// `xpath` query, date filters) refuses that entry only: it is reported as not sent, with why.
/// Options reqtop does not apply per request (`retry`, `delay`…) are said in one warning each.
enum HurlImporter {
    /// Hurl's generated values as reqtop's dynamic variables: `{{newUuid}}` is `{{$uuid}}`,
    /// `{{newDate}}` is `{{$isoTimestamp}}`.
    static func builtInFunctions(_ line: String) -> String {
        guard line.containsBytes("new") else { return line }
        return line.replacing(#/\{\{\s*newUuid\s*\}\}/#.matchingSemantics(.unicodeScalar)) { _ in "{{$uuid}}" }
            .replacing(#/\{\{\s*newDate\s*\}\}/#.matchingSemantics(.unicodeScalar)) { _ in "{{$isoTimestamp}}" }
    }

    static func parse(text: String, path: String) throws(RequestListError) -> RequestList {
        var reader = HurlReader(lines: text.splitLines().map(Self.builtInFunctions), path: path)
        try reader.read()
        var list = RequestList(specs: RequestSpecs(reader.specs), fileVariables: reader.variables, sourcePath: path, format: .http,
                               warnings: reader.warnings, sourceText: text)
        list.variableHint = "give it with --variable NAME=… (--var), in a --variables-file, or with [Options] variable: NAME=…"
        return list
    }
}

/// Hurl's section names (and their short forms since Hurl 5).
enum HurlSection: String {
    case query = "QueryStringParams", form = "FormParams", multipart = "MultipartFormData"
    case cookies = "Cookies", basicAuth = "BasicAuth", options = "Options", captures = "Captures", asserts = "Asserts"

    init?(line: String) {
        let trimmed = line.trimmingWhitespace()
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        let name = String(trimmed.dropFirst().dropLast())
        switch name {
        case "Query": self = .query
        case "Form": self = .form
        case "Multipart": self = .multipart
        default: self.init(rawValue: name)
        }
    }

    var isResponseSection: Bool { self == .captures || self == .asserts }
}

struct HurlReader: ExportedListReader {
    let lines: [String]
    let path: String
    var index = 0
    var specs: [RequestSpec] = []
    var variables: [FileVariable] = []
    var warnings: [RequestListWarning] = []
    var entryNumber = 0
    /// Options already warned about (said once per file).
    var warnedOptions: Set<String> = []

    init(lines: [String], path: String) {
        self.lines = lines
        self.path = path
    }

    var directory: String {
        let directory = path.deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    func location(line: Int, column: Int) -> SourceLocation { SourceLocation(file: path, line: line, column: column) }

    func error(_ message: String, line: Int, column: Int) -> RequestListError {
        RequestListError(file: path, line: line, column: column, message: message, lineText: line >= 1 && line <= lines.count ? lines[line - 1] : "")
    }

    func error(_ failure: HurlLine.Failure, line: Int) -> RequestListError { error(failure.message, line: line, column: failure.column) }

    static func isSkippable(_ line: String) -> Bool {
        let trimmed = line.trimmingWhitespace()
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// `METHOD url…`: a word, spaces, then something. Hurl's methods are upper case; a word with
    /// lower-case letters is read as one only when what follows is a URL (reqtop's own `convert`
    /// writes the method as the list had it).
    static func requestLine(_ line: String) -> (method: String, rest: Substring, urlColumn: Int)? {
        let leading = line.prefix { $0 == " " || $0 == "\t" }
        let afterIndent = line.dropFirst(leading.count)
        let method = afterIndent.prefix { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }
        guard !method.isEmpty, method.first!.isLetter else { return nil }
        if method.contains(where: \.isLowercase) {
            let rest = afterIndent.dropFirst(method.count).drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("http://") || rest.hasPrefix("https://") || rest.hasPrefix("{{") else { return nil }
        }
        let afterMethod = afterIndent.dropFirst(method.count)
        let spaces = afterMethod.prefix { $0 == " " || $0 == "\t" }
        guard !spaces.isEmpty, afterMethod.count > spaces.count else { return nil }
        return (String(method), afterMethod.dropFirst(spaces.count), leading.count + method.count + spaces.count + 1)
    }

    /// `HTTP 200`, `HTTP/1.1 404`, `HTTP *`: a status line alone (what tells a Hurl file from a `.http` one).
    static func isStatusLine(_ line: String) -> Bool {
        // By hand, as `^HTTP(/(1\.0|1\.1|2|3|\*))? ([1-9][0-9][0-9]|\*)( *#.*)?$` matches: it runs for every line read.
        var rest = Array(line.utf8)[...]
        func take(_ text: String) -> Bool {
            guard rest.starts(with: text.utf8) else { return false }
            rest = rest.dropFirst(text.utf8.count)
            return true
        }
        guard take("HTTP") else { return false }
        if take("/"), !["1.0", "1.1", "2", "3", "*"].contains(where: take) { return false }
        guard take(" ") else { return false }
        if !take("*") {
            let digits = rest.prefix(3)
            guard digits.count == 3, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  digits.first != UInt8(ascii: "0") else { return false }
            rest = rest.dropFirst(3)
        }
        guard !rest.isEmpty else { return true }
        return rest.drop { $0 == UInt8(ascii: " ") }.first == UInt8(ascii: "#")
    }

    static func isResponseLine(_ line: String) -> Bool {
        let trimmed = line.trimmingWhitespace()
        return trimmed == "HTTP" || trimmed.hasPrefix("HTTP ") || trimmed.hasPrefix("HTTP/") || trimmed.hasPrefix("HTTP\t")
    }

    static func startsBody(_ line: String) -> Bool {
        let trimmed = line.trimmingWhitespace()
        guard let first = trimmed.first else { return false }
        if first == "[" { return HurlSection(line: trimmed) == nil }
        if isJSONScalar(trimmed) { return true }
        return first == "{" || first == "<" || first == "`" || trimmed.hasPrefix("base64,") || trimmed.hasPrefix("hex,") || trimmed.hasPrefix("file,")
    }

    /// A JSON body that is one string, number, `true`, `false` or `null` on its line.
    static func isJSONScalar(_ trimmed: String) -> Bool {
        guard let first = trimmed.first, first == "\"" || first == "-" || first.isNumber || first == "t" || first == "f" || first == "n" else { return false }
        guard let value = try? JSONParser.parse(trimmed) else { return false }
        switch value {
        case .array, .object: return false
        default: return true
        }
    }

    mutating func skipBlank() {
        while index < lines.count, Self.isSkippable(lines[index]) { index += 1 }
    }

    mutating func read() throws(RequestListError) {
        skipBlank()
        while index < lines.count {
            try entry()
            skipBlank()
        }
    }

    // MARK: - Entries

    mutating func entry() throws(RequestListError) {
        entryNumber += 1
        let number = index + 1
        let line = lines[index]
        guard let request = Self.requestLine(line) else {
            let column = (line.firstIndex { $0 != " " && $0 != "\t" }).map { line.distance(from: line.startIndex, to: $0) + 1 } ?? 1
            throw error("expected a request line (METHOD URL, e.g. GET https://example.org)", line: number, column: column)
        }
        var reader = HurlLine(String(request.rest), number: number)
        var url = ""
        do {
            while let c = reader.peek, c != " ", c != "\t" {
                if c == "{", reader.i + 1 < reader.chars.count, reader.chars[reader.i + 1] == "{" { url += try reader.template(); continue }
                reader.i += 1
                url.append(c)
            }
            try reader.expectLineEnd()
        } catch {
            throw self.error(error.message, line: number, column: request.urlColumn + error.column - 1)
        }
        let specLocation = location(line: number, column: 1)
        var spec = RequestSpec(method: request.method, url: url, location: specLocation)
        spec.options.followRedirects = false // Hurl, like curl, follows redirects only when told
        index += 1

        var query: [(String, String)] = []
        var form: [FormField] = []
        var multipart: [ExportedFormField] = []
        var cookies: [String] = []
        var skip = false
        var repeatCount = 1
        var section: HurlSection?
        var bodyContentType: String?

        // The request part: headers, sections, body.
        requestLoop: while index < lines.count {
            let text = lines[index]
            let lineNumber = index + 1
            if Self.isSkippable(text) { index += 1; continue }
            if Self.isResponseLine(text) { break }
            if Self.requestLine(text) != nil, Self.requestLineLooksLikeURL(text) { break } // the next entry
            if let next = HurlSection(line: text) {
                if next.isResponseSection {
                    throw error("[\(next.rawValue)] belongs to a response: write the status line (HTTP 200) before it", line: lineNumber, column: 1)
                }
                section = next
                index += 1
                continue
            }
            if Self.startsBody(text) {
                let (body, type) = try requestBody()
                spec.body = body
                bodyContentType = type
                break requestLoop
            }
            var reader = HurlLine(text, number: lineNumber)
            let pair: (key: String, value: String, valueColumn: Int)
            do { pair = try reader.keyValue() } catch { throw self.error(error, line: lineNumber) }
            index += 1
            switch section {
            case nil: spec.headers.append(HTTPHeader(name: pair.key, value: pair.value))
            case .query?: query.append((pair.key, pair.value))
            case .form?: form.append(FormField(name: pair.key, value: pair.value))
            case .cookies?: cookies.append("\(pair.key)=\(pair.value)")
            case .basicAuth?:
                spec.headers.append(.basicAuthorization(user: pair.key, password: pair.value))
            case .multipart?:
                if pair.value.hasPrefix("file,") {
                    let rest = pair.value.dropFirst(5)
                    guard let semicolon = rest.firstIndex(of: ";") else {
                        throw error("a file part is written file,PATH; (with the ';')", line: lineNumber, column: pair.valueColumn)
                    }
                    let type = rest[rest.index(after: semicolon)...].trimmingWhitespace()
                    multipart.append(ExportedFormField(name: pair.key, value: "", file: String(rest[..<semicolon]), contentType: type.isEmpty ? nil : type))
                } else {
                    multipart.append(ExportedFormField(name: pair.key, value: pair.value, file: nil, contentType: nil))
                }
            case .options?:
                applyOption(pair.key, pair.value, to: &spec, line: lineNumber, column: reader.column, skip: &skip, repeatCount: &repeatCount)
            case .captures?, .asserts?: break
            }
        }

        // The Content-Type Hurl gives a typed body when the entry has none.
        if !query.isEmpty { spec.url += (spec.url.containsBytes("?") ? "&" : "?") + query.map { Self.encodeQuery($0.0) + "=" + Self.encodeQuery($0.1) }.joined(separator: "&") }
        if !cookies.isEmpty { spec.headers.append(HTTPHeader(name: "Cookie", value: cookies.joined(separator: "; "))) }
        if !form.isEmpty {
            if spec.body != nil { throw error("an entry has either [FormParams] or a body, not both", line: number, column: 1) }
            spec.body = .form(form)
            Self.addContentType("application/x-www-form-urlencoded", to: &spec.headers)
        } else if !multipart.isEmpty {
            if spec.body != nil { throw error("an entry has either [MultipartFormData] or a body, not both", line: number, column: 1) }
            spec.body = self.multipart(multipart, headers: &spec.headers)
        } else if let bodyContentType {
            Self.addContentType(bodyContentType, to: &spec.headers)
        }

        // The response part.
        skipBlank()
        if index < lines.count, Self.isResponseLine(lines[index]) {
            let (checks, refused) = try responseChecks()
            spec.checks = checks
            if var refusal = refused {
                refusal.needsRequestScript = true
                spec.refusal = refusal
            }
        }
        if skip {
            warnings.append(RequestListWarning(location: specLocation, message: "entry \(entryNumber) skipped ([Options] skip: true)"))
            return
        }
        for _ in 0..<max(1, repeatCount) { specs.append(spec) }
    }

    /// `GET http://…` rather than a header `Name: value`: the first `:` comes after a space.
    static func requestLineLooksLikeURL(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return true }
        return space < colon
    }

    /// Skips the rest of a refused entry's response section.
    mutating func skipResponse() {
        while index < lines.count {
            if !Self.isSkippable(lines[index]), Self.requestLine(lines[index]) != nil, Self.requestLineLooksLikeURL(lines[index]),
               !Self.isResponseLine(lines[index]) { return }
            index += 1
        }
    }

    /// A query parameter's name or value percent-encoded, its `{{templates}}` left for the resolver.
    static func encodeQuery(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.byteRange(of: "{{"), let close = rest.byteRange(of: "}}", in: open.upperBound..<rest.endIndex) {
            out += rest[..<open.lowerBound].percentEncoded()
            out += rest[open.lowerBound..<close.upperBound]
            rest = rest[close.upperBound...]
        }
        return out + rest.percentEncoded()
    }

    // MARK: - Options

    mutating func applyOption(_ name: String, _ value: String, to spec: inout RequestSpec, line: Int, column: Int,
                              skip: inout Bool, repeatCount: inout Int) {
        let flag = value.trimmingWhitespace() == "true"
        switch name {
        case "location", "follow-location": spec.options.followRedirects = flag
        case "location-trusted":
            spec.options.followRedirects = flag
            spec.options.trustedRedirects = flag
        case "max-redirs": spec.options.maxRedirects = Int(value)
        case "insecure": spec.options.insecure = flag
        case "compressed": spec.options.compressed = flag
        case "http1.1": if flag { spec.options.httpVersion = .http1_1 }
        case "http2": if flag { spec.options.httpVersion = .http2 }
        case "max-time": spec.options.timeout = Self.seconds(value, defaultUnit: 1)
        case "skip": skip = flag
        case "repeat": repeatCount = Int(value) ?? 1
        case "user": // as curl's -u: the user name, then the password after the first colon
            let colon = value.firstIndex(of: ":")
            spec.headers.append(.basicAuthorization(user: String(value[..<(colon ?? value.endIndex)]),
                                                    password: colon.map { String(value[value.index(after: $0)...]) } ?? ""))
        case "variable":
            guard let eq = value.firstIndex(of: "=") else {
                warnings.append(RequestListWarning(location: location(line: line, column: column), message: "[Options] variable needs NAME=VALUE: ignored"))
                return
            }
            variables.append(FileVariable(name: String(value[..<eq]).trimmingWhitespace(), value: String(value[value.index(after: eq)...]),
                                          location: location(line: line, column: column)))
        case "verbose", "very-verbose", "output":
            break // what Hurl prints: reqtop shows every request anyway
        default:
            guard warnedOptions.insert(name).inserted else { return }
            warnings.append(RequestListWarning(location: location(line: line, column: 1),
                                               message: "[Options] \(name) is not applied by reqtop (it applies location, max-redirs, insecure, "
                                                   + "compressed, max-time, user, variable, skip, repeat); the entry is sent without it"))
        }
    }

    /// `10`, `10s`, `500ms`, `1m` as seconds; a bare number is in `defaultUnit` seconds.
    static func seconds(_ text: String, defaultUnit: Double) -> Double? {
        let t = text.trimmingWhitespace()
        if t.hasSuffix("ms") { return Double(t.dropLast(2)).map { $0 / 1000 } }
        if t.hasSuffix("s") { return Double(t.dropLast()) }
        if t.hasSuffix("m") { return Double(t.dropLast()).map { $0 * 60 } }
        return Double(t).map { $0 * defaultUnit }
    }
}
