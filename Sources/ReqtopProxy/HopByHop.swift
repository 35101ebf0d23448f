import FoundationEssentials
import ReqtopHTTPModel

/// Header fields that describe one connection, not the message (RFC 9110 §7.6.1): a proxy removes
/// them, and every field the `Connection` header names, before forwarding.
enum HopByHop {
    static let names: Set<String> = ["connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding",
                                     "upgrade", "proxy-authorization", "proxy-authenticate"]

    /// `headers` without the hop-by-hop fields, order, case and duplicates otherwise kept.
    static func removing(from headers: [HTTPHeader]) -> [HTTPHeader] {
        var named = names
        for value in headers.values(for: "Connection") + headers.values(for: "Proxy-Connection") {
            for token in value.split(separator: ",") { named.insert(token.trimmingWhitespace().lowercased()) }
        }
        return headers.filter { !named.contains($0.name.lowercased()) }
    }
}
