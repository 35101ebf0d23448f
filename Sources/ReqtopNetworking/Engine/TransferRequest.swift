import Foundation

/// Everything the engine needs to start one transfer, resolved from the request, the task options
/// and the session configuration on the caller's thread.
struct TransferRequest: Sendable {
    enum Body: Sendable {
        case none
        case data(Data)
        case file(URL, size: Int64)
    }

    var url: URL
    var method: String
    var headers: [HTTPHeader]
    var body: Body
    var timeout: Double?
    var connectTimeout: Double
    var followRedirects: Bool
    var maxRedirects: Int
    var insecure: Bool
    var caFile: String?
    var httpVersion: SessionConfiguration.HTTPVersion
    var proxy: SessionConfiguration.Proxy
    var compression: Bool
    var cookies: Bool

    /// Transfers to the same scheme, host and port share a per-host limit.
    var hostKey: String {
        "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? -1)"
    }

    /// Nil without a body, and for a file whose size is unknown (sent chunked).
    var bodySize: Int64? {
        switch body {
        case .none: nil
        case .data(let data): Int64(data.count)
        case .file(_, let size): size >= 0 ? size : nil
        }
    }

    /// libcurl keeps a custom method (PUT, PATCH, DELETE, …) on every redirected request, even
    /// after a 303; for those the engine follows redirects itself, with the right method per hop.
    var followsRedirectsInEngine: Bool {
        followRedirects && !["GET", "HEAD", "POST"].contains(method.uppercased())
    }

    /// The request for the hop to `location` after a `status` redirect: a 303 turns into a GET
    /// without a body; 301, 302, 307 and 308 keep the method and body.
    func redirected(to location: URL, status: Int) -> TransferRequest {
        var next = self
        next.url = location
        if status == 303 {
            next.method = "GET"
            next.body = .none
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        return next
    }
}
