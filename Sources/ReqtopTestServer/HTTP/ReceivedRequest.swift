import ReqtopHTTPModel
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A parsed request: head and complete (de-chunked) body.
struct ReceivedRequest {
    let method: String
    /// The target as sent, e.g. `/get?a=1`.
    let target: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    let version: String
    let headers: [HTTPHeader]
    /// The head exactly as received: the request line, then each header line, without CRLFs.
    var rawHead: [String] = []
    var body: [UInt8] = []

    /// The path without query, percent-decoded where possible.
    var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return raw.percentDecoded() ?? raw
    }

    /// The raw query string (after `?`), or "".
    var query: String {
        guard let index = target.firstIndex(of: "?") else { return "" }
        return String(target[target.index(after: index)...])
    }

    /// Query items in order, decoded as a form (`+` is a space).
    var queryItems: [(name: String, value: String)] { FormDecoding.decode(query) }

    /// The first value of query parameter `name`.
    func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The first value of header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.value(for: name)
    }

    /// Whether the client wants the connection kept open after this exchange.
    var wantsKeepAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.containsBytes("keep-alive") }
        return !connection.containsBytes("close")
    }
}

/// `application/x-www-form-urlencoded` decoding, shared by query strings and form bodies.
enum FormDecoding {
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            return (name, value)
        }
    }

    private static func unescape(_ text: String) -> String {
        let spaced = text.replacingEvery("+", with: " ")
        return spaced.percentDecoded() ?? spaced
    }
}
