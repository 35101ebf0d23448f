import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// One client's connection, on the proxy thread: parses its requests one after another
/// (keep-alive, pipelining), starts a streaming task for each, writes the responses back, or
/// relays a CONNECT tunnel.
final class ClientConnection {
    enum Mode {
        /// Requests and responses (also inside a decrypted tunnel).
        case http
        /// HTTP/2 (ALPN `h2` in a decrypted tunnel, or prior knowledge): streams, each an exchange.
        case http2(HTTP2Session)
        /// A CONNECT waiting for its host to accept.
        case connecting
        case tunnel(Tunnel)
        /// `--intercept`: the TLS handshake with the client, after the CONNECT's 200.
        case handshake(Handshake)
        /// Closing: our side is shut, what the client still sends is read and dropped until it
        /// closes too or `until` — so the last response is not lost to a reset (RFC 9112 §9.6).
        case lingering(until: Double)
    }

    /// A CONNECT being intercepted.
    struct Handshake {
        var host: String
        var port: Int
        var connect: ClientRequestHead
        /// Made when the CONNECT is answered; it becomes the transport once the `200` has gone in clear.
        var tls: TLSTransport
    }

    let serial: Int
    let fd: Int32
    var transport: ConnectionTransport
    var mode = Mode.http
    /// Requests inside an intercepted tunnel are in origin-form: they go to this origin.
    var origin: String?
    /// The client chose HTTP/2 by ALPN in the intercepted tunnel's handshake.
    var negotiatedHTTP2 = false
    /// Bytes from the client not yet parsed.
    var inbound = ByteQueue()
    /// The proxy's own bytes for the client (errors, the CONNECT reply), written before anything else.
    var pendingOut = ByteQueue()
    var exchange: ProxyExchange?
    /// Decoding the current request's body from `inbound`, until it is complete.
    var body: BodyDecoder?
    /// A chunked request's task, resumed once its first chunk size is read and good.
    var deferredStart: HTTPTask?
    /// The request's framing was malformed: what the client still sends is read and dropped.
    var discardsInbound = false
    var readEOF = false
    /// When bytes last moved either way (idle connections are closed after a while).
    var lastActivity = Date().timeIntervalSince1970
    /// Bytes read and dropped while lingering.
    var discarded = 0
    /// The client reset or closed both ways: no longer polled.
    var hungUp = false
    var closeWhenFlushed = false
    /// The last write could not go on: wait until the descriptor is writable.
    var blockedOnWrite = false
    /// The transport (TLS) needs the descriptor writable to go on reading.
    var readNeedsWritable = false
    var closed = false

    init(serial: Int, fd: Int32) {
        self.serial = serial
        self.fd = fd
        transport = SocketTransport(fd: fd)
    }

    /// The events to wait for on `fd`.
    var pollEvents: Int16 {
        var events: Int16 = 0
        if wantsRead { events |= Int16(POLLIN) }
        if blockedOnWrite || readNeedsWritable { events |= Int16(POLLOUT) }
        return events
    }

    var wantsRead: Bool {
        guard !readEOF, !closed else { return false }
        switch mode {
        case .http:
            if inbound.count >= 256 << 10 { return false }
            if body != nil, let exchange { return exchange.bufferedBody < ProxyExchange.highWater }
            return true
        case .http2(let session): return session.isOpen && session.bufferedRequestBodies < ProxyExchange.highWater
        case .connecting: return false
        case .tunnel(let tunnel): return tunnel.toUpstream.count < Tunnel.bufferLimit
        case .handshake, .lingering: return true
        }
    }

    // MARK: Reading

    /// Reads what the client sent, while it wants more; false when the connection failed.
    func readAvailable() -> Bool {
        readNeedsWritable = false
        if case .handshake = mode { return true } // the TLS handshake reads for itself
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while wantsRead {
            let result = buffer.withUnsafeMutableBytes { transport.read(into: $0) }
            switch result {
            case .bytes(let n):
                lastActivity = Date().timeIntervalSince1970
                if case .lingering = mode {
                    discarded += n
                    continue
                }
                if discardsInbound { continue }
                buffer.withUnsafeBytes { all in
                    let bytes = UnsafeRawBufferPointer(rebasing: all[..<n])
                    switch mode {
                    case .tunnel(let tunnel): tunnel.fromClient(bytes)
                    case .http2(let session): session.feed(bytes)
                    default: inbound.append(bytes)
                    }
                }
            case .wouldBlock(let wantsWrite):
                readNeedsWritable = wantsWrite
                return true
            case .closed:
                readEOF = true
                return true
            case .failed:
                readEOF = true
                return false
            }
        }
        return true
    }

    // MARK: Writing

    /// Writes the proxy's own bytes, then the exchange's; false when the connection failed.
    func flush() -> Bool {
        blockedOnWrite = false
        var failed = false
        let write: (UnsafeRawBufferPointer) -> Int = { [transport] bytes in
            guard !failed, !bytes.isEmpty else { return 0 }
            switch transport.write(bytes) {
            case .bytes(let n):
                self.lastActivity = Date().timeIntervalSince1970
                return n
            case .wouldBlock: self.blockedOnWrite = true; return 0
            case .closed, .failed: failed = true; return 0
            }
        }
        while !pendingOut.isEmpty, !blockedOnWrite, !failed {
            let n = pendingOut.withBytes { write($0) }
            pendingOut.drop(n)
        }
        if pendingOut.isEmpty, !blockedOnWrite, let exchange { exchange.flush(write) }
        if case .tunnel(let tunnel) = mode, pendingOut.isEmpty, !blockedOnWrite { tunnel.flushToClient(write) }
        if case .http2(let session) = mode, pendingOut.isEmpty, !blockedOnWrite, !failed { session.flush(write) }
        return !failed
    }

    var hasPendingOutput: Bool { !pendingOut.isEmpty || exchange?.hasOutput == true }

    /// Answers with `status` and a one-line reason, and closes the connection after it.
    func refuse(_ status: Int, _ reason: String, headers: [String] = []) {
        let phrase = [400: "Bad Request", 403: "Forbidden", 404: "Not Found", 407: "Proxy Authentication Required",
                      431: "Request Header Fields Too Large", 501: "Not Implemented", 502: "Bad Gateway",
                      505: "HTTP Version Not Supported"][status] ?? "Error"
        let body = "reqtop proxy: \(reason)\n"
        pendingOut.append("HTTP/1.1 \(status) \(phrase)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Content-Type: text/plain; charset=utf-8\r\n"
                          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        closeWhenFlushed = true
    }

    func close() {
        guard !closed else { return }
        closed = true
        exchange?.clientWentAway()
        if case .tunnel(let tunnel) = mode { tunnel.close() }
        if case .http2(let session) = mode { session.close() }
        transport.close()
    }
}
