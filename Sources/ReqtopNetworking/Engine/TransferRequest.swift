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

    var bodySize: Int64? {
        switch body {
        case .none: nil
        case .data(let data): Int64(data.count)
        case .file(_, let size): size
        }
    }
}
