import CTLS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// TLS over a socket: reqtop on the server side of a client's connection (`--intercept`), or on the
/// client side of a host's (a `wss://` WebSocket inside an intercepted tunnel). Closing it closes the socket.
final class TLSTransport: ConnectionTransport {
    private let session: OpaquePointer
    private let fd: Int32

    init?(context: OpaquePointer, fd: Int32) {
        guard let session = ctls_session_new(context, fd) else { return nil }
        self.session = session
        self.fd = fd
    }

    /// The client side, to `host` (verified with `client`'s trust unless it is insecure); the
    /// handshake runs in the first reads and writes. Fails with the reason.
    init(client: OpaquePointer, fd: Int32, host: String) throws(ProxyError) {
        guard let session = ctls_session_connect(client, fd, host) else {
            var text = [CChar](repeating: 0, count: 256)
            ctls_session_error(nil, &text, text.count)
            throw ProxyError("cannot start TLS to \(host): \(String(cBuffer: text))")
        }
        self.session = session
        self.fd = fd
    }

    /// true when done, false to be called again when the descriptor is ready (`wantsWrite` says which way).
    func handshake() -> Result<Bool, ProxyError> {
        let result = Int(ctls_handshake(session))
        switch result {
        case 1: return .success(true)
        case CTLS_WANT_READ, CTLS_WANT_WRITE: return .success(false)
        default: return .failure(ProxyError(errorText))
        }
    }

    /// The client chose `h2` by ALPN.
    var negotiatedHTTP2: Bool { ctls_session_alpn_h2(session) == 1 }

    var errorText: String {
        var text = [CChar](repeating: 0, count: 256)
        ctls_session_error(session, &text, text.count)
        return String(cBuffer: text)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        outcome(ctls_read(session, buffer.baseAddress, buffer.count))
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        outcome(ctls_write(session, bytes.baseAddress, bytes.count))
    }

    private func outcome(_ n: Int) -> IOResult {
        if n > 0 { return .bytes(n) }
        switch n {
        case CTLS_CLOSED: return .closed
        case CTLS_WANT_READ: return .wouldBlock(wantsWrite: false)
        case CTLS_WANT_WRITE: return .wouldBlock(wantsWrite: true)
        default: return .failed(errorText)
        }
    }

    var hasBufferedInput: Bool { ctls_pending(session) > 0 }

    func close() {
        ctls_session_free(session)
        Glibc.close(fd)
    }

    /// Frees the session of a connection that turned out not to speak TLS, leaving the socket open.
    func abandon() { ctls_session_free(session) }
}
