/// One header line; name and value are templates that may contain `{{variables}}`.
public struct HeaderField: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One `name=value` pair of a URL-encoded form body.
extension Array where Element == HeaderField {
    /// The first value of the header named `name` (case-insensitive).
    public func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

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
    /// The contents of a file; `path` as written, `resolvedAgainst` the directory it is relative to.
    case file(path: String, resolvedAgainst: String)
    /// URL-encoded form fields (`application/x-www-form-urlencoded`).
    case form([FormField])
}

/// Per-request transfer options. `nil` means "the runner's default".
public struct RequestOptions: Sendable, Hashable {
    /// Follow redirects (`curl -L`; `# @no-redirect` in `.http` sets false).
    public var followRedirects: Bool?
    /// Skip TLS verification (`curl -k`).
    public var insecure: Bool?
    /// Ask for a compressed response and decode it (`curl --compressed`).
    public var compressed: Bool
    /// Whole-transfer timeout in seconds (`curl -m`, `# @timeout`).
    public var timeout: Double?

    public init(followRedirects: Bool? = nil, insecure: Bool? = nil, compressed: Bool = false, timeout: Double? = nil) {
        self.followRedirects = followRedirects
        self.insecure = insecure
        self.compressed = compressed
        self.timeout = timeout
    }
}

/// One request of a list, before variables are substituted.
public struct RequestSpec: Sendable, Hashable {
    /// The request's name (`### name`, `# @name name`); other requests refer to its response by it.
    public var name: String?
    /// HTTP method, upper case.
    public var method: String
    /// URL template; may contain `{{variables}}`.
    public var url: String
    /// Ordered header templates.
    public var headers: [HeaderField]
    public var body: RequestBody?
    public var options: RequestOptions
    /// Where the request starts in its file (the request line), if it came from a file.
    public var location: SourceLocation?

    public init(
        name: String? = nil, method: String = "GET", url: String, headers: [HeaderField] = [],
        body: RequestBody? = nil, options: RequestOptions = RequestOptions(), location: SourceLocation? = nil
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
    public func header(named name: String) -> String? { headers.value(named: name) }

    /// This spec without its source location: compare specs from different files with it.
    public var withoutLocation: RequestSpec {
        var copy = self
        copy.location = nil
        return copy
    }
}
