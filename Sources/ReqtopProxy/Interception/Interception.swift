import CTLS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `--intercept` on the proxy thread: answers a CONNECT itself, then speaks TLS to the client with
/// a certificate for the host it asked for (minted once per host and kept), so the requests inside
/// are read, forwarded and shown like plain ones.
final class Interception {
    private let authority: CertificateAuthority
    private var contexts: [String: OpaquePointer] = [:]

    init(_ authority: CertificateAuthority) {
        self.authority = authority
    }

    deinit { for context in contexts.values { ctls_context_free(context) } }

    /// The server context for `host`, minted the first time.
    func context(for host: String) throws(ProxyError) -> OpaquePointer {
        let key = host.lowercased()
        if let context = contexts[key] { return context }
        if contexts.count >= 4096 { // a bound, not a cache policy: this many hosts in one session is unusual
            for context in contexts.values { ctls_context_free(context) }
            contexts.removeAll()
        }
        let context = try authority.mintContext(for: host)
        contexts[key] = context
        return context
    }

    /// Goes on with the handshake of a connection whose CONNECT was answered: once the `200` has
    /// gone (in clear), TLS starts; when it is done the connection reads requests for
    /// `https://host:port`. A failed handshake (the program does not trust the CA) ends the
    /// connection and is reported with `failed`, with the hint to trust the CA.
    func continueHandshake(_ connection: ClientConnection, handshake: ClientConnection.Handshake, failed: (String) -> Void) {
        guard connection.pendingOut.isEmpty else { return }
        let host = handshake.host.containsBytes(":") ? "[\(handshake.host)]" : handshake.host
        if connection.transport is SocketTransport {
            // What the client sends first says whether the tunnel is TLS (a handshake record, 0x16) or
            // plain HTTP (a `ws://` client tunnels that way too): plain requests are read as they are.
            var first: UInt8 = 0
            let n = recv(connection.fd, &first, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            if n == 1, first != 0x16 {
                handshake.tls.abandon()
                connection.mode = .http
                connection.origin = "http://" + host + ":\(handshake.port)"
                return
            }
            if n <= 0 {
                handshake.tls.abandon()
                connection.readEOF = true
                connection.closeWhenFlushed = true
                connection.mode = .http
                return
            }
        }
        connection.transport = handshake.tls
        switch handshake.tls.handshake() {
        case .success(true):
            connection.mode = .http
            connection.negotiatedHTTP2 = handshake.tls.negotiatedHTTP2
            connection.inbound.removeAll() // nothing sent in clear after the CONNECT is part of the TLS stream
            connection.origin = "https://" + host + (handshake.port == 443 ? "" : ":\(handshake.port)")
        case .success(false):
            break // poll says when to go on
        case .failure(let error):
            failed("TLS handshake with the client failed: \(error.description) — does the program trust reqtop's CA? (\(authority.certificatePath))")
            connection.readEOF = true
            connection.closeWhenFlushed = true
        }
    }
}
