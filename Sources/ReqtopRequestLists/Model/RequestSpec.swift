import FoundationEssentials

/// One `name=value` pair of a URL-encoded form body.
public struct FormField: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Where a request body comes from.
public enum RequestBody: Sendable, Hashable {
    /// Literal text (a template in `.http` lists).
    case text(String)
    /// Literal bytes, never substituted (a binary HAR body).
    case bytes(Data)
    /// The contents of a file; `path` as written, `resolvedAgainst` the directory it is relative to.
    case file(path: String, resolvedAgainst: String)
    /// URL-encoded form fields (`application/x-www-form-urlencoded`).
    case form([FormField])
    /// Text and file pieces, one after the other on their own lines: a `<@ ./file` body (the file
    /// with variables substituted) or a multipart body with `< ./file` parts.
    case parts([BodyPart])

    /// The body's bytes when they are written in the list (text or bytes), else nil.
    public var inlineData: Data? {
        switch self {
        case .text(let text): Data(text.utf8)
        case .bytes(let data): data
        default: nil
        }
    }

    /// `path` made absolute: relative paths are relative to `directory`, itself relative to the
    /// current directory when it is not absolute.
    public static func absolutePath(_ path: String, relativeTo directory: String) -> String {
        if path.hasPrefix("/") { return path }
        let base = directory.hasPrefix("/") ? directory
            : FileManager.default.currentDirectoryPath.appendingPathComponent(directory)
        return base.appendingPathComponent(path).standardizingPath(home: ProcessInfo.processInfo.environment["HOME"])
    }
}

/// A script of a `.http` request: JavaScript run before it or after its response (`--no-scripts`
/// skips them), or a directive reqtop reads but does not run.
public struct RequestScript: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `< {% … %}` or `< file.js` before the request line.
        case preRequest
        /// `> {% … %}` or `> file.js` after the body.
        case responseHandler
        /// `>> file` / `>>! file`: saving the response to a file.
        case outputRedirect
        /// A comment directive that sets a variable (`# @prompt NAME`, kulala's `# @env-stdin-cmd NAME …`):
        /// `source` is the directive without `# @`.
        case variableDirective
    }
    public var kind: Kind
    /// The script text (`{% … %}` contents), or the file it names.
    public var source: String
    /// Where the `<` or `>` is.
    public var location: SourceLocation
    /// `source` names a file (`> handler.js`, relative to the list) rather than being the script.
    public var inFile: Bool

    public init(kind: Kind, source: String, location: SourceLocation, inFile: Bool = false) {
        self.kind = kind
        self.source = source
        self.location = location
        self.inFile = inFile
    }

    /// Whether it is JavaScript that reqtop runs (a pre-request script or a response handler,
    /// inline or in a file), not a directive or an output redirection.
    public var isJavaScript: Bool { kind == .preRequest || kind == .responseHandler }

    /// Names the script sets with `client.global.set("name", …)`, `request.variables.set("name", …)`,
    /// Postman's `pm.environment/collectionVariables/globals/variables.set("name", …)`,
    /// (httpyac) `exports.name = …`, or the name a variable directive sets.
    public var setVariables: [String] {
        if kind == .variableDirective {
            let words = source.split(separator: " ")
            // httpyac `@loop for item of list` sets `item`; the others name their variable first.
            if words.first == "loop" { return words.count > 3 && words[1] == "for" && words[3] == "of" ? [String(words[2])] : [] }
            return words.dropFirst().prefix(1).map(String.init)
        }
        var names: [String] = []
        for marker in ["client.global.set(", "request.variables.set(", "pm.environment.set(", "pm.collectionVariables.set(",
                       "pm.globals.set(", "pm.variables.set(", "bru.setVar(", "bru.setEnvVar(",
                       "postman.setEnvironmentVariable(", "postman.setGlobalVariable("] {
            var rest = Substring(source)
            while let range = rest.byteRange(of: marker) {
                rest = rest[range.upperBound...].drop { $0 == " " }
                guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
                let name = rest.dropFirst().prefix { $0 != quote }
                if !name.isEmpty { names.append(String(name)) }
            }
        }
        // httpyac: `exports.name = …`
        var rest = Substring(source)
        while let range = rest.byteRange(of: "exports.") {
            rest = rest[range.upperBound...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, rest.dropFirst(name.count).drop(while: { $0 == " " }).first == "=" { names.append(String(name)) }
        }
        return names
    }
}

/// A piece of a `.parts` body.
public enum BodyPart: Sendable, Hashable {
    /// Lines of text (a template in `.http` lists).
    case text(String)
    /// A file's contents; `substitutesVariables` for `<@`.
    case file(path: String, resolvedAgainst: String, substitutesVariables: Bool)
}

/// One request of a list, before variables are substituted.
public struct RequestSpec: Sendable, Hashable {
    /// The request's name (`### name`, `# @name name`); other requests refer to its response by it.
    public var name: String?
    /// HTTP method exactly as written (any RFC 9110 token).
    public var method: String
    /// URL template; may contain `{{variables}}`.
    public var url: String
    /// Ordered header templates: names and values may contain `{{variables}}`.
    public var headers: [HTTPHeader]
    public var body: RequestBody?
    /// Timeout, redirects, TLS, compression — the same options the request is sent with.
    public var options: HTTPRequest.Options
    /// Where the request starts in its file (the request line), if it came from a file.
    public var location: SourceLocation?
    /// Scripts around the request that reqtop skips (kept for a later step that may run them).
    public var scripts: [RequestScript] = []
    /// What the list says the response must be, and the values it captures from it (Hurl's
    /// response section): evaluated natively, not a script (`--no-scripts` does not skip it).
    public var checks: ResponseChecks?
    /// Why reqtop does not send this request (a part it cannot do, such as a Hurl `xpath` assert):
    /// it is reported as not sent, located, and the rest of the list runs.
    public var refusal: RequestListError?

    public init(
        name: String? = nil, method: String = "GET", url: String, headers: [HTTPHeader] = [],
        body: RequestBody? = nil, options: HTTPRequest.Options = HTTPRequest.Options(), location: SourceLocation? = nil
    ) {
        self.name = name
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.options = options
        self.location = location
    }

    /// The first header with this name (case-insensitive).
    public func header(named name: String) -> String? { headers.value(for: name) }

    /// This spec without its source location: compare specs from different files with it.
    public var withoutLocation: RequestSpec {
        var copy = self
        copy.location = nil
        return copy
    }
}

extension RequestSpec {
    /// A resolved request as a spec (for writing it as `.http` or curl): its text is literal, a
    /// body in memory becomes literal bytes, a file body stays a file.
    public init(_ request: HTTPRequest, name: String? = nil) {
        let body: RequestBody? = switch request.body {
        case .none: nil
        case .data(let data): .bytes(data)
        case .file(let path): .file(path: path, resolvedAgainst: "/")
        }
        self.init(name: name, method: request.method, url: request.url.absoluteString, headers: request.headers, body: body,
                  options: request.options)
    }
}
