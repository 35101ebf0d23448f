import FoundationEssentials
import ReqtopHTTPModel

/// One request the ``TestServer`` parsed completely, as recorded in ``TestServer/requestLog``.
package struct LoggedRequest: Sendable, Equatable {
    /// The request method, e.g. `GET`.
    package let method: String
    /// The request target as sent: path and query, e.g. `/get?a=1`.
    package let target: String
    /// The path without the query, e.g. `/get`.
    package let path: String
    /// The header fields in the order they arrived (names as sent).
    package let headers: [HTTPHeader]
    /// The head exactly as received: request line, then each header line (order, case and
    /// duplicates as sent), without CRLFs.
    package let rawHead: [String]
    /// The size of the (de-chunked) request body in bytes.
    package let bodySize: Int
    /// SHA-256 of the body, lower-case hex.
    package let bodySHA256: String
    /// The body itself when the server keeps bodies and it is at most `keptBodyLimit` bytes (else nil).
    package let body: Data?
    /// Which accepted TCP connection carried the request (1 for the first accepted connection).
    package let connectionID: Int

    /// Bodies up to this size are kept in the log.
    package static let keptBodyLimit = 1 << 16

    /// The first value of the header `name` (case-insensitive), if present.
    package func header(_ name: String) -> String? {
        headers.value(for: name)
    }
}
