import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel

/// `--proxy-auth user:password`: the Basic credentials (RFC 7617) a client must send in
/// `Proxy-Authorization` before the proxy forwards anything for it, and who may reach the proxy at all.
public struct ProxyCredentials: Sendable, Equatable {
    public let user: String
    public let password: String

    /// `user:password`; the password may contain `:`, the user may not (RFC 7617 §2).
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        user = String(text[..<colon])
        password = String(text[text.index(after: colon)...])
    }

    /// The value of `Proxy-Authorization` a client sends for them.
    var basicValue: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    /// Whether `headers` carry these credentials: one `Proxy-Authorization: Basic` whose token
    /// decodes to `user:password`. The scheme is case-insensitive; the token is compared in constant time.
    func areSent(in headers: [HTTPHeader]) -> Bool {
        let values = headers.values(for: "Proxy-Authorization")
        guard values.count == 1 else { return false }
        let parts = values[0].trimmingWhitespace().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingWhitespace()) else { return false }
        let expected = Data("\(user):\(password)".utf8)
        guard decoded.count == expected.count else { return false }
        return zip(decoded, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Why a request without them is refused, as the client and the inspector see it.
    static func refusal(sent headers: [HTTPHeader]) -> String {
        headers.values(for: "Proxy-Authorization").isEmpty
            ? "proxy authentication required: send Proxy-Authorization: Basic (curl --proxy-user USER:PASS)"
            : "proxy authentication failed: the Proxy-Authorization credentials are not the ones --proxy-auth set"
    }

    /// Whether `host` (what `--host` names) is a loopback address: `localhost`, 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false // a name: it may resolve anywhere
    }
}
