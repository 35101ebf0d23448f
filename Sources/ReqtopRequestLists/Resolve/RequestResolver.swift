import Foundation
import ReqtopSync

/// Turns the specs of a list into `HTTPRequest`s, substituting variables and, for chained
/// requests, values from the responses the runner records. Thread-safe.
///
/// Variables are only substituted in `.http` lists; HAR and curl text is taken literally.
public final class RequestResolver: Sendable {
    public let list: RequestList
    public let variables: VariableContext
    private let fileVariables: FileVariableScope
    /// The indices of the requests of each name, in list order: a name may be used more than once
    /// (a reference reads the nearest request of that name before it — `producer(_:before:)`).
    private let indicesByName: [String: [Int]]
    /// Outcomes of finished requests, by index.
    private let outcomes = Protected<[Int: RecordedOutcome]>([:])
    /// `dependencies(of:)` per spec: parsed once, asked for by validation, cycle checks and the runner.
    private let dependencyCache = Protected<[Int: Set<String>]>([:])

    public init(list: RequestList, variables: VariableContext = VariableContext()) {
        self.list = list
        self.variables = variables
        fileVariables = FileVariableScope(list.fileVariables)
        var indicesByName: [String: [Int]] = [:]
        for (index, name) in list.specs.names.sorted(by: { $0.index < $1.index }) { indicesByName[name, default: []].append(index) }
        self.indicesByName = indicesByName
    }

    /// Which of the requests at `indices` (one name's, in order) a reference written in the request
    /// at `index` reads: the nearest one before it, as httpyac and VS Code REST Client read the latest
    /// response of a name; when none is before it, the first one after it (never the request itself).
    /// Without an index (a file variable checked on its own), the first.
    static func producer(_ indices: [Int], before index: Int?) -> Int? {
        guard let index else { return indices.first }
        // Binary search (`indices` is sorted): a long list may use one name thousands of times.
        var low = 0, high = indices.count // the first position whose index is >= `index`
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        if low > 0 { return indices[low - 1] }
        if low < indices.count, indices[low] == index { low += 1 } // never the request itself
        return low < indices.count ? indices[low] : nil
    }

    private var substitutesVariables: Bool { list.format == .http }

    private func substitution(spec index: Int?, outcomes: [Int: RecordedOutcome]?,
                              keepingResponseReferences: Bool = false) -> Substitution {
        var substitution = Substitution(list: list, variables: variables, fileVariables: fileVariables,
                                        locator: VariableLocator(list: list), outcomes: outcomes, specIndex: index,
                                        indicesByName: indicesByName)
        substitution.keepsResponseReferences = keepingResponseReferences
        return substitution
    }

    /// Checks every variable before anything is sent: unknown variables, unknown dynamic
    /// variables, references to requests that do not exist, dependency cycles, and (for requests
    /// that do not depend on responses) that the URL and body resolve.
    public func validate() throws(RequestListError) {
        guard substitutesVariables else {
            for (index, spec) in list.specs.enumerated() { _ = try resolve(index, spec: spec, keepingResponseReferences: false) }
            return
        }
        for variable in list.fileVariables {
            do { _ = try substitution(spec: nil, outcomes: nil).substituteFileVariable(variable) } catch where error.needsSkippedScript {}
        }
        // Each request is read once (a long list parses it again when read). A request without
        // templates resolves now, but its error waits for the template and cycle checks, which come
        // first, and for the requests before it.
        var needsScript: Set<Int> = []
        var templated: [Int] = []
        var literalError: (index: Int, error: RequestListError)?
        for index in list.specs.indices where !list.specs.resolvesAsWritten(index) {
            let spec = list.specs[index]
            if Self.hasTemplates(spec) || readsFileWithVariables(spec) {
                templated.append(index)
                let checker = substitution(spec: index, outcomes: nil)
                for text in Self.templates(of: spec) + substitutedFileTexts(of: spec) {
                    // A request that needs what only a skipped script sets is reported when it comes up (not sent).
                    do { _ = try checker.substitute(text) } catch where error.needsSkippedScript { needsScript.insert(index) }
                }
            } else if literalError == nil, !Self.resolvesAsWritten(spec) { // (a long list noted this bit when parsed)
                do { _ = try resolve(index, spec: spec, keepingResponseReferences: false) } catch { literalError = (index, error) }
            }
        }
        try checkCycles()
        for index in templated where dependencies(of: index).isEmpty && !needsScript.contains(index) {
            if let literalError, literalError.index < index { throw literalError.error }
            do { _ = try resolve(index) } catch where error.needsSkippedScript {} // not sent when its turn comes, with why
        }
        if let literalError { throw literalError.error }
    }

    /// Names of the requests whose responses the spec at `index` uses (through file variables too).
    public func dependencies(of index: Int) -> Set<String> {
        guard list.specs.indices.contains(index), !list.specs.resolvesAsWritten(index) else { return [] }
        return dependencies(of: index, spec: list.specs[index])
    }

    /// The indices of the requests whose responses the spec at `index` reads: for each name it
    /// references, the nearest request of that name before it (see `producer(_:before:)`).
    public func producers(of index: Int) -> Set<Int> {
        producers(of: index, names: dependencies(of: index))
    }

    private func producers(of index: Int, names: Set<String>) -> Set<Int> {
        Set(names.compactMap { name in indicesByName[name].flatMap { Self.producer($0, before: index) } })
    }

    /// `producers(of:)` of every request that reads some response, by index (one read of the list;
    /// the requests a long list knows resolve as written are not read at all).
    public func requestsWithProducers() -> [Int: Set<Int>] {
        guard substitutesVariables else { return [:] }
        var found: [Int: Set<Int>] = [:]
        for index in list.specs.indices where !list.specs.resolvesAsWritten(index) {
            let names = dependencies(of: index, spec: list.specs[index])
            if !names.isEmpty { found[index] = producers(of: index, names: names) }
        }
        return found
    }

    /// `dependencies(of:)` for the spec at `index` when it has been read already.
    private func dependencies(of index: Int, spec: RequestSpec) -> Set<String> {
        guard substitutesVariables, Self.hasTemplates(spec) || readsFileWithVariables(spec) else { return [] }
        if let cached = dependencyCache.withLock({ $0[index] }) { return cached }
        let found = findDependencies(of: index, spec: spec)
        dependencyCache.withLock { $0[index] = found }
        return found
    }

    private func findDependencies(of index: Int, spec: RequestSpec) -> Set<String> {
        var names: Set<String> = []
        var visited: Set<SourceLocation> = []
        var visitedEnvironment: Set<String> = []
        // Each template with the line it is written on (file variables are positional).
        let specLine = spec.location?.line
        var pending = (Self.templates(of: spec) + substitutedFileTexts(of: spec)).map { (text: $0, line: specLine) }
        while let (text, line) = pending.popLast() {
            guard let template = try? Template.parse(text) else { continue }
            for name in template.variableNames {
                switch try? VariableReference.parse(name) {
                case let .response(ref)?: names.insert(ref.requestName)
                case let .named(key)?:
                    if variables.commandLine[key] != nil { continue }
                    if let value = variables.environment[key] {
                        // An environment value's own `{{…}}` are read too (`"auth": "Bearer {{token}}"`).
                        if value.containsTemplateOpening, visitedEnvironment.insert(key).inserted { pending.append((value, line)) }
                    } else if let variable = fileVariables.variable(named: key, seenFromLine: line),
                              visited.insert(variable.location).inserted {
                        pending.append((variable.value, variable.location.line))
                    }
                default: break
                }
            }
        }
        return names
    }

    /// Records the response of the completed request at `index`, for the requests that reference it.
    public func record(response: RecordedResponse, forRequestAt index: Int) {
        outcomes.withLock { $0[index] = .response(response) }
    }

    /// Records that the request at `index` failed, so the requests that reference it fail with `reason`.
    public func recordFailure(ofRequestAt index: Int, reason: String) {
        outcomes.withLock { $0[index] = .failed(reason) }
    }

    /// `record(response:forRequestAt:)` for every request named `name`.
    public func record(response: RecordedResponse, forRequestNamed name: String) {
        for index in indicesByName[name] ?? [] { record(response: response, forRequestAt: index) }
    }

    /// `recordFailure(ofRequestAt:reason:)` for every request named `name`.
    public func recordFailure(ofRequestNamed name: String, reason: String) {
        for index in indicesByName[name] ?? [] { recordFailure(ofRequestAt: index, reason: reason) }
    }

    /// Resolves the spec at `index` with the responses recorded so far: the request exactly as it
    /// will be sent — method as written, headers in order with duplicates, body bytes, options.
    public func resolve(_ index: Int) throws(RequestListError) -> HTTPRequest {
        try resolve(index, keepingResponseReferences: false)
    }

    /// Resolves every variable of the spec at `index` except references to other requests'
    /// responses, which stay as `{{login.response…}}` text (for `convert` to HAR and curl, which
    /// cannot wait for a response).
    public func resolveKeepingResponseReferences(_ index: Int) throws(RequestListError) -> HTTPRequest {
        try resolve(index, keepingResponseReferences: true)
    }

    private func resolve(_ index: Int, keepingResponseReferences: Bool) throws(RequestListError) -> HTTPRequest {
        try resolve(index, spec: list.specs[index], keepingResponseReferences: keepingResponseReferences)
    }

    private func resolve(_ index: Int, spec: RequestSpec, keepingResponseReferences: Bool) throws(RequestListError) -> HTTPRequest {
        var locator: VariableLocator { VariableLocator(list: list) } // made only for an error
        // Most requests of a long list have no `{{` (nor a `<@` file whose text may have some): they are
        // taken as written, without setting up a substitution.
        let sub = substitutesVariables && (Self.hasTemplates(spec) || readsFileWithVariables(spec))
            ? substitution(spec: index, outcomes: outcomes.snapshot, keepingResponseReferences: keepingResponseReferences) : nil
        func apply(_ text: String) throws(RequestListError) -> String {
            try sub?.substitute(text) ?? text
        }
        var urlText = try apply(spec.url)
        guard HTTPRequest.isValidMethod(spec.method) else {
            throw locator.error("\(quoting: spec.method) is not an HTTP method (a token of letters, digits and !#$%&'*+-.^_`|~)", spec: index)
        }
        var headers: [HTTPHeader] = []
        for header in spec.headers {
            let name = try apply(header.name)
            var value = try apply(header.value)
            // (Not while a reference is kept as text: that would encode the template.)
            if substitutesVariables, HTTPHeader.namesMatch(name, "Authorization"), !(keepingResponseReferences && value.containsTemplateOpening) {
                value = Self.encodingBasicCredentials(value)
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        if sub != nil, !keepingResponseReferences {
            try refuseUnresolvedPlaceholders(url: urlText, headers: headers, spec: spec, index: index)
        }
        if urlText.hasPrefix("/") {
            // Origin form: the JetBrains spec takes the host from the Host header (http unless it says otherwise).
            guard let host = headers.value(for: "Host") else {
                let hint = list.format == .http ? " (httpyac would prefix the file's {{host}} variable; reqtop follows the JetBrains spec)" : ""
                throw locator.error("\(quoting: urlText) has no host: add a 'Host:' header or write a full URL" + hint, spec: index)
            }
            urlText = (host.contains("://") ? host : "http://" + host) + urlText
        }
        guard let url = Self.makeURL(urlText) else {
            throw locator.error("invalid URL \(quoting: urlText): use a full URL such as https://example.org/path", spec: index)
        }
        guard url.scheme == "http" || url.scheme == "https" else {
            throw locator.error("\(quoting: urlText): reqtop sends HTTP and HTTPS requests only, not \(url.scheme):", spec: index)
        }
        var method = spec.method
        var body = HTTPRequest.Body.none
        switch spec.body {
        case nil: break
        case let .text(text): body = .data(Data(try apply(text).utf8))
        case let .bytes(data): body = .data(data)
        case let .file(path, directory):
            let resolvedPath = try apply(path)
            let full = RequestBody.absolutePath(resolvedPath, relativeTo: directory)
            guard let data = FileManager.default.contents(atPath: full) else {
                throw locator.error("cannot read body file \(quoting: resolvedPath) (looked for \(full))", spec: index)
            }
            body = .data(data)
        case let .form(fields):
            var resolved: [FormField] = []
            for field in fields { resolved.append(FormField(name: try apply(field.name), value: try apply(field.value))) }
            body = .data(Data(FormEncoding.encode(resolved).utf8))
        case let .parts(parts):
            // Multipart bodies go out with CRLF line ends, as RFC 2046 asks; other bodies with LF.
            let newline = (headers.value(for: "Content-Type") ?? "").lowercased().hasPrefix("multipart/") ? "\r\n" : "\n"
            var data = Data()
            for (offset, part) in parts.enumerated() {
                if offset > 0 { data.append(Data(newline.utf8)) }
                switch part {
                case let .text(text):
                    data.append(Data(try apply(text).replacingOccurrences(of: "\n", with: newline).utf8))
                case let .file(path, directory, substitutes):
                    let resolvedPath = try apply(path)
                    let full = RequestBody.absolutePath(resolvedPath, relativeTo: directory)
                    guard let contents = FileManager.default.contents(atPath: full) else {
                        throw locator.error("cannot read body file \(quoting: resolvedPath) (looked for \(full))", spec: index)
                    }
                    data.append(substitutes ? Data(try apply(String(decoding: contents, as: UTF8.self)).utf8) : contents)
                }
            }
            body = .data(data)
        }
        if substitutesVariables {
            do throws(GraphQLBody.Problem) {
                if let graphQL = try GraphQLBody(method: &method, headers: &headers, body: body) { body = .data(graphQL.body) }
            } catch {
                throw locator.error(error.message, spec: index)
            }
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: body, options: spec.options)
    }

    /// A `{{…}}` still in the URL or a header after substitution (a value that brought one with it:
    /// `--var id={{x}}`, an environment value with a placeholder meant for another client) would go
    /// out as text nobody meant to send: the request is not sent, saying which placeholder and where.
    private func refuseUnresolvedPlaceholders(url: String, headers: [HTTPHeader], spec: RequestSpec, index: Int) throws(RequestListError) {
        var found: (place: String, text: String)?
        if let range = Self.placeholder(in: url) {
            found = ("URL", String(url[range]))
        } else {
            for header in headers {
                if let range = Self.placeholder(in: header.name) { found = ("header name", String(header.name[range])); break }
                if let range = Self.placeholder(in: header.value) { found = ("\(header.name) header", String(header.value[range])); break }
            }
        }
        guard let found else { return }
        var error = VariableLocator(list: list).error(
            "the \(found.place) still holds \(quoting: found.text) after substitution (a variable's value brought it); "
                + "reqtop does not send an unresolved placeholder", spec: index)
        error.needsSkippedScript = true // not sent; the rest of the list runs
        throw error
    }

    /// The range of the first `{{…}}` (on one line) in `text`, or nil.
    static func placeholder(in text: String) -> Range<String.Index>? {
        guard text.containsTemplateOpening, let open = text.range(of: "{{"),
              let close = text.range(of: "}}", range: open.upperBound..<text.endIndex),
              !text[open.upperBound..<close.lowerBound].contains(where: \.isNewline) else { return nil }
        return open.lowerBound..<close.upperBound
    }

    /// `.http` files may write `Authorization: Basic user password` or `Basic user:password` in
    /// the clear, as the JetBrains and VS Code clients accept; the header sent is base64-encoded.
    /// A value that is already one token without a colon is taken as encoded.
    static func encodingBasicCredentials(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].caseInsensitiveCompare("Basic") == .orderedSame else { return value }
        let credentials: String
        if parts.count == 3 {
            credentials = "\(parts[1]):\(parts[2])"
        } else if parts[1].contains(":") {
            credentials = String(parts[1])
        } else {
            return value
        }
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// Whether `spec` resolves to a request with nothing to substitute and nothing that can fail
    /// later: no `{{`, a token method, an absolute http(s) URL, no body file, not GraphQL. A long
    /// list notes this when it is first parsed (one bit a request), so validation need not parse the
    /// request again.
    static func resolvesAsWritten(_ spec: RequestSpec) -> Bool {
        switch spec.body {
        case nil, .text?, .bytes?, .form?: break
        case .file?, .parts?: return false
        }
        guard !hasTemplates(spec), HTTPRequest.isValidMethod(spec.method), !spec.url.hasPrefix("/"),
              spec.method.utf8.count != 7 || spec.method.uppercased() != "GRAPHQL", spec.header(named: "X-REQUEST-TYPE") == nil,
              let url = makeURL(spec.url), url.scheme == "http" || url.scheme == "https" else { return false }
        return true
    }

    /// The URL as written; `http://` is assumed when it names no scheme (`localhost:8080/x`).
    static func makeURL(_ text: String) -> HTTPURL? {
        if let url = HTTPURL(string: text) { return url } // it trims the text itself
        let candidate = text.trimmingWhitespace()
        return candidate.contains("://") ? nil : HTTPURL(string: "http://" + candidate)
    }

    /// Whether any text of the spec has a `{{` (most requests of a long list have none).
    private static func hasTemplates(_ spec: RequestSpec) -> Bool {
        if spec.url.containsTemplateOpening || spec.headers.contains(where: { $0.name.containsTemplateOpening || $0.value.containsTemplateOpening }) {
            return true
        }
        switch spec.body {
        case nil, .bytes?: return false
        default: return templates(of: spec).contains { $0.containsTemplateOpening }
        }
    }

    /// The text of each `<@` file of the body that can be read now (its variables, and the responses
    /// it uses, count as the request's own; a file that cannot be read fails when the request is sent).
    private func substitutedFileTexts(of spec: RequestSpec) -> [String] {
        guard case let .parts(parts)? = spec.body else { return [] }
        return parts.compactMap { part -> String? in
            guard case let .file(path, directory, true) = part, !path.containsTemplateOpening,
                  let data = FileManager.default.contents(atPath: RequestBody.absolutePath(path, relativeTo: directory)) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Whether the body has a `<@` file part, whose text is substituted when it is read.
    private func readsFileWithVariables(_ spec: RequestSpec) -> Bool {
        guard case let .parts(parts)? = spec.body else { return false }
        return parts.contains { if case .file(_, _, true) = $0 { true } else { false } }
    }

    private static func templates(of spec: RequestSpec) -> [String] {
        var texts = [spec.url]
        for header in spec.headers { texts += [header.name, header.value] }
        switch spec.body {
        case let .text(text)?: texts.append(text)
        case let .file(path, _)?: texts.append(path)
        case let .form(fields)?: for field in fields { texts += [field.name, field.value] }
        case let .parts(parts)?:
            for part in parts {
                switch part {
                case let .text(text): texts.append(text)
                case let .file(path, _, _): texts.append(path) // a `<@` file's own variables are checked when it is read
                }
            }
        case .bytes?, nil: break
        }
        return texts
    }

    /// One depth-first walk over the dependency graph (linear in requests and references): a
    /// reference back to a request still on the walk's path closes a cycle, reported from there.
    /// (A walk from every request, carrying copies of its path, took 61 s for a chain of 8000.)
    private func checkCycles() throws(RequestListError) {
        guard !indicesByName.isEmpty else { return } // references name requests: without names there are no edges
        func edges(_ index: Int) -> [Int] { producers(of: index).sorted() }
        enum Mark { case unvisited, onPath, done }
        var mark = [Mark](repeating: .unvisited, count: list.specs.count)
        for start in list.specs.indices where mark[start] == .unvisited {
            var path = [start]
            var pending = [(edges: edges(start), next: 0)]
            mark[start] = .onPath
            while let top = pending.last {
                guard top.next < top.edges.count else {
                    mark[path.removeLast()] = .done
                    pending.removeLast()
                    continue
                }
                let next = top.edges[top.next]
                pending[pending.count - 1].next += 1
                switch mark[next] {
                case .onPath:
                    let cycle = path[path.lastIndex(of: next)!...] + [next]
                    let names = cycle.map { list.specs[$0].name ?? "#\($0 + 1)" }.joined(separator: " → ")
                    throw VariableLocator(list: list).error("requests depend on each other in a cycle: \(names)", spec: next)
                case .unvisited:
                    mark[next] = .onPath
                    path.append(next)
                    pending.append((edges(next), 0))
                case .done:
                    break
                }
            }
        }
    }
}

extension Substitution {
    func substituteFileVariable(_ variable: FileVariable) throws(RequestListError) -> String {
        try substitute(variable.value, variable: variable, stack: [variable])
    }
}
