import CTLS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// The proxy thread: one `poll` over the listener, every client connection and every tunnel's
/// host connection. Everything here runs on that thread.
final class ProxyLoop {
    let listener: Int32
    let manager: SessionManager
    let configuration: ProxyConfiguration
    let control: ProxyControl
    let interception: Interception?
    var connections: [Int: ClientConnection] = [:]
    var nextSerial = 0
    var pendingTunnels: [Int: any TunnelEvents] = [:]
    /// TLS client settings for `wss://` hosts (`hostTLS()`), freed with the loop.
    var upstreamTLS: OpaquePointer?

    init(listener: Int32, manager: SessionManager, configuration: ProxyConfiguration, control: ProxyControl) {
        self.listener = listener
        self.manager = manager
        self.configuration = configuration
        self.control = control
        interception = configuration.interception.map(Interception.init)
    }

    func run() {
        defer {
            for connection in connections.values { connection.close() }
            connections.removeAll()
            for report in pendingTunnels.values { report.end(failure: "the proxy stopped while the tunnel was connecting") }
            pendingTunnels.removeAll()
            ctls_client_free(upstreamTLS)
            Glibc.close(listener)
            control.close() // a connect that ends later closes its descriptor itself (the inbox says stopped)
        }
        var fds: [pollfd] = []
        var owners: [(connection: ClientConnection, upstream: Bool)] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: control.wakeRead, events: Int16(POLLIN), revents: 0))
            let now = Date().timeIntervalSince1970
            let accepting = connections.count < maxConnections && now >= acceptPausedUntil
            fds.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            var immediate = false
            for connection in connections.values {
                // A descriptor nothing is wanted from is left out: an error or hang-up on it would wake
                // every poll while nothing could be done about it yet.
                let events = connection.pollEvents
                fds.append(pollfd(fd: connection.hungUp || events == 0 ? -1 : connection.fd, events: events, revents: 0))
                owners.append((connection, false))
                if case .tunnel(let tunnel) = connection.mode {
                    if tunnel.hostHasBufferedInput { immediate = true }
                    let upstream = tunnel.upstreamPollEvents
                    fds.append(pollfd(fd: tunnel.upstreamEOF || upstream == 0 ? -1 : tunnel.upstream, events: upstream, revents: 0))
                    owners.append((connection, true))
                }
                if connection.transport.hasBufferedInput, connection.wantsRead { immediate = true }
            }
            let timeout: Int32 = immediate ? 0 : (accepting || acceptPausedUntil <= now ? 1000 : 100)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR { break }
            if fds[0].revents != 0 { drainWakePipe() }
            let (stopping, connected) = control.inbox.withLock { inbox in
                defer { inbox.connected.removeAll() }
                return (inbox.stopping, inbox.connected)
            }
            if stopping { return }
            for (serial, result) in connected { tunnelConnected(serial, result) }
            if fds[1].revents != 0 { acceptAll() }

            for (index, owner) in owners.enumerated() where !owner.connection.closed {
                let events = fds[index + 2].revents
                let connection = owner.connection
                if owner.upstream {
                    guard case .tunnel(let tunnel) = connection.mode, events != 0 else { continue }
                    if events & Int16(POLLERR) != 0 { tunnel.upstreamFailed() } else { tunnel.readUpstream() }
                } else if events & Int16(POLLERR | POLLHUP) != 0 {
                    // Reset, or closed both ways (a half-close is POLLIN with EOF): what it sent last is
                    // still read, then it is left out of the poll (the condition would wake every one),
                    // and its request is cancelled — nothing can reach it any more.
                    _ = connection.readAvailable()
                    connection.readEOF = true
                    connection.hungUp = true
                    if case .http = connection.mode {
                        connection.exchange?.clientWentAway()
                        connection.closeWhenFlushed = true
                    }
                    if case .http2(let session) = connection.mode { session.close() }
                } else if events & Int16(POLLIN) != 0 || (events & Int16(POLLOUT) != 0 && connection.readNeedsWritable) {
                    if !connection.readAvailable() { connection.closeWhenFlushed = true }
                }
            }
            let after = Date().timeIntervalSince1970
            for connection in Array(connections.values) {
                if connection.transport.hasBufferedInput, connection.wantsRead, !connection.readAvailable() {
                    connection.closeWhenFlushed = true
                }
                service(connection, now: after)
            }
        }
    }

    /// Descriptors left for everything else: each client may hold two (a tunnel's host), libcurl
    /// needs its own upstream connections, and the process has its files.
    private lazy var maxConnections: Int = {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let available = limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur) // RLIM_INFINITY is all ones
        return max(16, min(configuration.maxConnections, (available - 128) / 3))
    }()

    /// After `accept` failed for want of descriptors, the listener rests a moment (it would stay readable).
    var acceptPausedUntil = 0.0

    /// A connection waiting for a request head (or a TLS handshake) this long is closed.
    static let idleTimeout = 60.0

    func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while read(control.wakeRead, &buffer, buffer.count) > 0 {}
    }

    func acceptAll() {
        while connections.count < maxConnections {
            switch Socket.accept(listener) {
            case .accepted(let fd):
                nextSerial += 1
                connections[nextSerial] = ClientConnection(serial: nextSerial, fd: fd)
            case .none:
                return
            case .outOfDescriptors:
                acceptPausedUntil = Date().timeIntervalSince1970 + 0.1
                return
            }
        }
    }

    // MARK: One connection

    /// Moves everything along that can move: parses requests, feeds bodies, writes responses,
    /// relays tunnels, and closes the connection when it is done.
    func service(_ connection: ClientConnection, now: Double) {
        switch connection.mode {
        case .http:
            if connection.exchange == nil, now - connection.lastActivity > Self.idleTimeout { return finish(connection) }
            process(connection)
        case .http2(let session):
            return serviceHTTP2(connection, session, now: now)
        case .connecting:
            break
        case .tunnel(let tunnel):
            if tunnel.hostHasBufferedInput { tunnel.readUpstream() }
            tunnel.flushUpstream(clientEOF: connection.readEOF)
        case .handshake(let handshake):
            if now - connection.lastActivity > Self.idleTimeout { return finish(connection) }
            interception?.continueHandshake(connection, handshake: handshake) { why in
                TunnelReport(manager: manager, request: handshake.connect, host: handshake.host, port: handshake.port)?
                    .end(failure: why, code: .tlsFailure)
            }
            if case .http = connection.mode {
                if connection.negotiatedHTTP2 {
                    beginHTTP2(connection)
                    if case .http2(let session) = connection.mode { serviceHTTP2(connection, session, now: now) }
                    return
                }
                process(connection)
            }
        case .lingering(let until):
            if connection.readEOF || connection.hungUp || now > until || connection.discarded > 1 << 20 { close(connection) }
            return
        }
        if !connection.flush() { return finish(connection) }
        if case .http = connection.mode, connection.exchange != nil { advance(connection) }
        if case .tunnel(let tunnel) = connection.mode {
            if let failure = tunnel.failure, tunnel.report.replyOnConnect == nil, !tunnel.receivedAny {
                // A WebSocket whose host never answered (refused TLS, reset): the client is told why.
                tunnel.close()
                connection.mode = .http
                connection.refuse(502, failure)
                return
            }
            if tunnel.upstreamEOF, tunnel.toClient.isEmpty, !connection.blockedOnWrite, !tunnel.clientWriteShut {
                tunnel.clientWriteShut = true
                shutdown(connection.fd, Int32(SHUT_WR)) // the host is done: so is the client's read side
            }
            if tunnel.isFinished(clientEOF: connection.readEOF) || connection.hungUp && tunnel.toUpstream.isEmpty {
                return finish(connection)
            }
        }
        let idle = connection.exchange == nil && !connection.hasPendingOutput
        if connection.closeWhenFlushed, !connection.hasPendingOutput || connection.closed { return finish(connection) }
        // The client has sent all it will, and nothing of it is left to answer: the connection is done.
        guard connection.readEOF, idle, connection.body == nil else { return }
        switch connection.mode {
        case .http where connection.inbound.isEmpty, .connecting, .handshake: finish(connection)
        default: break
        }
    }

    /// Ends a connection. A client that may still be sending (an HTTP connection, not at its end)
    /// gets a lingering close: closing with unread bytes would reset the connection and could
    /// destroy the response still on its way to it.
    func finish(_ connection: ClientConnection) {
        if case .http = connection.mode, !connection.readEOF, !connection.hungUp, !connection.closed,
           connection.transport is SocketTransport {
            connection.exchange?.clientWentAway()
            connection.exchange = nil
            connection.body = nil
            connection.inbound.removeAll()
            shutdown(connection.fd, Int32(SHUT_WR))
            connection.mode = .lingering(until: Date().timeIntervalSince1970 + 2)
            return
        }
        close(connection)
    }

    func close(_ connection: ClientConnection) {
        connection.close()
        connections[connection.serial] = nil
    }

    /// After a response was written whole: the next request, or the end of the connection.
    func advance(_ connection: ClientConnection) {
        guard let exchange = connection.exchange else { return }
        let (done, close) = exchange.completion
        guard done else {
            // The client's end came before all of its body: it will not send the rest.
            if connection.readEOF, connection.body != nil, connection.inbound.isEmpty { exchange.clientWentAway() }
            return
        }
        connection.exchange = nil
        if close || connection.body != nil {
            // A body the server did not wait for cannot be skipped reliably: the connection ends.
            connection.body = nil
            connection.closeWhenFlushed = true
            return
        }
        process(connection) // a pipelined request may be waiting
    }

    /// Whether the client began with HTTP/2's preface (prior knowledge, cleartext): the connection is
    /// switched to HTTP/2. True also while what came so far could still be the preface.
    func startsHTTP2(_ connection: ClientConnection) -> Bool {
        let preface = Self.clientPreface
        let matched = connection.inbound.withBytes { bytes in zip(bytes, preface).allSatisfy { $0 == $1 } }
        guard matched else { return false }
        if connection.inbound.count >= preface.count {
            beginHTTP2(connection)
        } else if connection.readEOF {
            connection.closeWhenFlushed = true
        }
        return true
    }

    /// Parses and starts requests, and feeds the current one's body.
    func process(_ connection: ClientConnection) {
        while !connection.closeWhenFlushed {
            if connection.exchange == nil {
                guard !connection.inbound.isEmpty else { return }
                if connection.origin?.hasPrefix("https:") != true, startsHTTP2(connection) { return }
                let outcome = connection.inbound.withBytes { RequestHeadParser.parse($0) }
                switch outcome {
                case .incomplete:
                    if connection.readEOF { connection.closeWhenFlushed = true }
                    return
                case .malformed(let status, let reason):
                    connection.inbound.removeAll()
                    connection.refuse(status, reason)
                    return
                case .head(let head, let consumed):
                    connection.inbound.drop(consumed)
                    start(head, on: connection)
                    if case .http = connection.mode {} else { return }
                }
            }
            guard var decoder = connection.body, let exchange = connection.exchange else { return }
            guard !connection.inbound.isEmpty || connection.readEOF else { return }
            do {
                let room = ProxyExchange.highWater - exchange.bufferedBody
                guard room > 0 else { return }
                let used = try connection.inbound.withBytes { bytes in
                    try decoder.decode(UnsafeRawBufferPointer(rebasing: bytes.prefix(room))) { exchange.appendBody($0) }
                }
                connection.inbound.drop(used)
            } catch {
                // Nothing more is read from this client: the task fails saying why, the client gets a 400
                // (before anything went upstream when the first chunk size was the bad one), then the connection closes.
                connection.inbound.removeAll()
                connection.body = nil
                exchange.clientSentMalformedBody("\(error)", started: connection.deferredStart == nil)
                connection.deferredStart = nil
                // What the client still sends is read and dropped (not left unread: closing then would reset
                // the connection and could destroy the 400), until the response is written and the close lingers.
                connection.discardsInbound = true
                return
            }
            // A chunked body goes upstream once its first chunk size has been read and found good.
            if let task = connection.deferredStart, decoder.hasReadAChunkSize || decoder.isDone {
                connection.deferredStart = nil
                resume(task, exchange)
            }
            if decoder.isDone {
                connection.body = nil
                exchange.endBody()
            } else {
                connection.body = decoder
                if connection.readEOF, connection.inbound.isEmpty { exchange.clientWentAway() }
                return
            }
            return // the next request is parsed once this response is written
        }
    }
}
