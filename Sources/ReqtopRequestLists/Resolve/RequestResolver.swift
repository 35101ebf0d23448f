import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// Turns the specs of a list into `HTTPRequest`s, substituting variables and, for chained
/// requests, values from the responses the runner records. Thread-safe.
///
/// Variables are only substituted in `.http` lists; HAR and curl text is taken literally.
public final class RequestResolver: Sendable {
    public let list: RequestList
    public let variables: VariableContext
    let fileVariables: FileVariableScope
    /// The indices of the requests of each name, in list order: a name may be used more than once
    /// (a reference reads the nearest request of that name before it — `producer(_:before:)`).
    let indicesByName: [String: [Int]]
    /// Outcomes of finished requests, by index.
    let outcomes = Protected<[Int: RecordedOutcome]>([:])
    /// `dependencies(of:)` per spec: parsed once, asked for by validation, cycle checks and the runner.
    let dependencyCache = Protected<[Int: Set<String>]>([:])

    /// What the list's scripts set, when they run (nil: `--no-scripts`, or a resolver that only writes the list out).
    public let scriptVariables: ScriptVariables?
    /// Each request's own variables, from its pre-request script (`request.variables.set`), by index.
    let requestVariables = Protected<[Int: [String: String]]>([:])

    public init(list: RequestList, variables: VariableContext = VariableContext(), scriptVariables: ScriptVariables? = nil) {
        self.list = list
        self.variables = variables
        self.scriptVariables = scriptVariables
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

    var substitutesVariables: Bool { list.format == .http }

    func substitution(spec index: Int?, outcomes: [Int: RecordedOutcome]?,
                              keepingResponseReferences: Bool = false) -> Substitution {
        var substitution = Substitution(list: list, variables: variables, fileVariables: fileVariables,
                                        locator: VariableLocator(list: list), outcomes: outcomes, specIndex: index,
                                        indicesByName: indicesByName)
        substitution.keepsResponseReferences = keepingResponseReferences
        if let scriptVariables {
            substitution.scriptGlobals = scriptVariables.global
            substitution.evaluate = scriptVariables.evaluate
            substitution.requestVariables = index.flatMap { index in requestVariables.withLock { $0[index] } } ?? [:]
        }
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
            do { _ = try substitution(spec: nil, outcomes: nil).substituteFileVariable(variable) } catch where error.needsRequestScript {}
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
                    do { _ = try checker.substitute(text) } catch where error.needsRequestScript { needsScript.insert(index) }
                }
            } else if literalError == nil, !Self.resolvesAsWritten(spec) { // (a long list noted this bit when parsed)
                do { _ = try resolve(index, spec: spec, keepingResponseReferences: false) } catch {
                    if !error.needsRequestScript { literalError = (index, error) } // else: not sent when its turn comes, with why
                }
            }
        }
        try checkCycles()
        for index in templated where dependencies(of: index).isEmpty && !needsScript.contains(index) {
            if let literalError, literalError.index < index { throw literalError.error }
            do { _ = try resolve(index) } catch where error.needsRequestScript {} // not sent when its turn comes, with why
        }
        if let literalError { throw literalError.error }
    }

    /// The variables the pre-request script of the request at `index` set for it (this round only).
    public func setRequestVariables(_ values: [String: String], forRequestAt index: Int) {
        requestVariables.withLock { $0[index] = values.isEmpty ? nil : values }
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

    /// `resolve(_:)` for a caller that already holds the spec at `index` (a long list parses a
    /// request again each time it is read: this reads it once).
    public func resolve(_ index: Int, spec: RequestSpec) throws(RequestListError) -> HTTPRequest {
        try resolve(index, spec: spec, keepingResponseReferences: false)
    }

    /// `text` with the `{{variables}}` the request at `index` sees substituted (the values of its
    /// response checks).
    public func substitute(_ text: String, forRequestAt index: Int) throws(RequestListError) -> String {
        guard substitutesVariables, text.containsTemplateOpening else { return text }
        return try substitution(spec: index, outcomes: outcomes.snapshot).substitute(text)
    }

    /// Resolves every variable of the spec at `index` except what is known only when the list runs —
    /// references to other requests' responses and variables only scripts set — which stay as
    /// `{{login.response…}}` and `{{token}}` text (for a dry run, and `convert` to HAR and curl,
    /// which cannot wait for a response nor run a script).
    public func resolveKeepingResponseReferences(_ index: Int) throws(RequestListError) -> HTTPRequest {
        try resolve(index, keepingResponseReferences: true)
    }

    func resolve(_ index: Int, keepingResponseReferences: Bool) throws(RequestListError) -> HTTPRequest {
        try resolve(index, spec: list.specs[index], keepingResponseReferences: keepingResponseReferences)
    }

    func resolve(_ index: Int, spec: RequestSpec, keepingResponseReferences: Bool) throws(RequestListError) -> HTTPRequest {
        if let refusal = spec.refusal { throw refusal }
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
                value = Self.encodingBasicCredentials(value, written: header.value)
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        if sub != nil, !keepingResponseReferences {
            try refuseUnresolvedPlaceholders(url: urlText, headers: headers, spec: spec, index: index)
        }
        if list.schemeless == .http, case let trimmed = urlText.trimmingWhitespace(), !trimmed.isEmpty, !trimmed.hasPrefix("/"),
           !trimmed.containsTemplateOpening, trimmed.prefixMatch(of: #/[A-Za-z][A-Za-z0-9+.\-]*:\/\//#) == nil {
            urlText = "http://" + urlText // Postman and Insomnia send a URL without a scheme over http
        }
        if urlText.hasPrefix("/") {
            // Origin form: the JetBrains spec takes the host from the Host header (http unless it says otherwise).
            guard let host = headers.value(for: "Host") else {
                let hint = list.format == .http ? " (httpyac would prefix the file's {{host}} variable; reqtop follows the JetBrains spec)" : ""
                throw locator.error("\(quoting: urlText) has no host: add a 'Host:' header or write a full URL" + hint, spec: index)
            }
            urlText = (host.containsBytes("://") ? host : "http://" + host) + urlText
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
        case let .text(text):
            // A multipart body goes out with CRLF line ends (RFC 2046), written with file parts or not.
            let isMultipart = (headers.value(for: "Content-Type") ?? "").lowercased().hasPrefix("multipart/")
            let substituted = try apply(text)
            body = .data(Data((isMultipart ? Self.crlf(substituted) : substituted).utf8))
        case let .bytes(data): body = .data(data)
        case let .file(path, directory):
            let resolvedPath = try apply(path)
            let full = RequestBody.absolutePath(resolvedPath, relativeTo: directory)
            guard let data = FileManager.default.contents(atPath: full) else {
                throw RequestListError.missingBodyFile(locator.error("cannot read body file \(quoting: resolvedPath) (looked for \(full))", spec: index))
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
                    let substituted = try apply(text)
                    data.append(Data((newline == "\r\n" ? Self.crlf(substituted) : substituted).utf8))
                case let .file(path, directory, substitutes):
                    let resolvedPath = try apply(path)
                    let full = RequestBody.absolutePath(resolvedPath, relativeTo: directory)
                    guard let contents = FileManager.default.contents(atPath: full) else {
                        throw RequestListError.missingBodyFile(locator.error("cannot read body file \(quoting: resolvedPath) (looked for \(full))", spec: index))
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

    /// `text` with each bare LF as CRLF (a CRLF already there stays one).
    static func crlf(_ text: String) -> String {
        guard text.containsBytes("\n") else { return text }
        return text.replacingEvery("\r\n", with: "\n").replacingEvery("\n", with: "\r\n")
    }

    /// One depth-first walk over the dependency graph (linear in requests and references): a
    /// reference back to a request still on the walk's path closes a cycle, reported from there.
    /// (A walk from every request, carrying copies of its path, took 61 s for a chain of 8000.)
    func checkCycles() throws(RequestListError) {
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

extension RequestListError {
    /// A body file that is not there when its request's turn comes (a Postman export names files on
    /// its author's machine): that request is not sent, saying so; the rest of the list runs.
    static func missingBodyFile(_ error: RequestListError) -> RequestListError {
        var error = error
        error.needsRequestScript = true
        return error
    }
}
