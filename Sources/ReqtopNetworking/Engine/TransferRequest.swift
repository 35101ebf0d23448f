import FoundationEssentials

/// One request and the settings it is sent with: the request's own options where it has them,
/// the session's otherwise. This is the one place where options meet the configuration.
struct TransferRequest: Sendable {
    var request: HTTPRequest
    var timeout: Double?
    var connectTimeout: Double
    var idleTimeout: Double?
    var followRedirects: Bool
    var maxRedirects: Int
    var trustedRedirects: Bool
    var insecure: Bool
    var caFile: String?
    var httpVersion: SessionConfiguration.HTTPVersion
    var proxy: SessionConfiguration.Proxy
    var compression: Bool
    var cookies: Bool
    var userAgent: String?
    /// Size of a file body, or −1 when unknown (then it is sent chunked).
    var fileSize: Int64
    /// A streaming task's request body, read as it arrives (the request's own body is ignored).
    var bodySource: (any RequestBodySource)?
    /// Send the head as given: no `Accept` added by libcurl.
    var verbatimHead = false

    init(_ request: HTTPRequest, configuration: SessionConfiguration) {
        let options = request.options
        self.request = request
        timeout = options.timeout ?? configuration.requestTimeout
        connectTimeout = configuration.connectTimeout
        idleTimeout = configuration.idleTimeout
        followRedirects = options.followRedirects ?? configuration.followRedirects
        maxRedirects = options.maxRedirects ?? configuration.maxRedirects
        trustedRedirects = options.trustedRedirects ?? false
        insecure = options.insecure ?? configuration.insecure
        caFile = configuration.caFile
        httpVersion = options.httpVersion.map(SessionConfiguration.HTTPVersion.init) ?? configuration.httpVersion
        proxy = configuration.proxy
        compression = options.compressed ?? configuration.compression
        cookies = configuration.cookies
        userAgent = configuration.userAgent
        if case .file(let path) = request.body {
            // Only a regular file has a size to announce; a pipe or device is sent chunked.
            let status = FileStatus(path: path)
            fileSize = status?.isRegularFile == true ? status!.size : -1
        } else {
            fileSize = -1
        }
    }

    var url: HTTPURL { request.url }

    /// Whether a body goes with the request.
    var hasBody: Bool {
        if bodySource != nil { return true }
        if case .none = request.body { return false }
        return true
    }

    /// Transfers to the same scheme, host and port share a per-host limit.
    var hostKey: String { "\(url.scheme)://\(url.host.lowercased()):\(url.effectivePort)" }

    /// Nil without a body, and for a file whose size is unknown (sent chunked).
    var bodySize: Int64? {
        if let bodySource { return bodySource.length }
        return switch request.body {
        case .none: nil
        case .data(let data): Int64(data.count)
        case .file: fileSize >= 0 ? fileSize : nil
        }
    }
}
