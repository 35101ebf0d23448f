import ReqtopHTTPModel

/// One request the ``TestServer`` parsed completely, as recorded in ``TestServer/requestLog``.
public struct LoggedRequest: Sendable, Equatable {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The request target as sent: path and query, e.g. `/get?a=1`.
    public let target: String
    /// The path without the query, e.g. `/get`.
    public let path: String
    /// The header fields in the order they arrived (names as sent).
    public let headers: [HTTPHeader]
    /// The head exactly as received: request line, then each header line (order, case and
    /// duplicates as sent), without CRLFs.
    public let rawHead: [String]
    /// The size of the (de-chunked) request body in bytes.
    public let bodySize: Int
    /// Which accepted TCP connection carried the request (1 for the first accepted connection).
    public let connectionID: Int

    /// The first value of the header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.value(for: name)
    }
}
