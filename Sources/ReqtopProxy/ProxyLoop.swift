import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// The proxy thread: one `poll` over the listener, every client connection and every tunnel's
/// host connection. Everything here runs on that thread.
final class ProxyLoop {
    private let listener: Int32
    private let manager: SessionManager
    private let configuration: ProxyConfiguration
    private let control: ProxyControl
    private let interception: Interception?
    private var connections: [Int: ClientConnection] = [:]
    private var nextSerial = 0

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
    private var acceptPausedUntil = 0.0

    /// A connection waiting for a request head (or a TLS handshake) this long is closed.
    static let idleTimeout = 60.0

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while read(control.wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func acceptAll() {
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
    private func service(_ connection: ClientConnection, now: Double) {
        switch connection.mode {
        case .http:
            if connection.exchange == nil, now - connection.lastActivity > Self.idleTimeout { return finish(connection) }
            process(connection)
        case .connecting:
            break
        case .tunnel(let tunnel):
            tunnel.flushUpstream(clientEOF: connection.readEOF)
        case .handshake(let handshake):
            if now - connection.lastActivity > Self.idleTimeout { return finish(connection) }
            interception?.continueHandshake(connection, handshake: handshake) { why in
                TunnelReport(manager: manager, request: handshake.connect, host: handshake.host, port: handshake.port)?
                    .end(failure: why, code: .tlsFailure)
            }
            if case .http = connection.mode { process(connection) }
        case .lingering(let until):
            if connection.readEOF || connection.hungUp || now > until || connection.discarded > 1 << 20 { close(connection) }
            return
        }
        if !connection.flush() { return finish(connection) }
        if case .http = connection.mode, connection.exchange != nil { advance(connection) }
        if case .tunnel(let tunnel) = connection.mode {
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
    private func finish(_ connection: ClientConnection) {
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

    private func close(_ connection: ClientConnection) {
        connection.close()
        connections[connection.serial] = nil
    }

    /// After a response was written whole: the next request, or the end of the connection.
    private func advance(_ connection: ClientConnection) {
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

    /// Parses and starts requests, and feeds the current one's body.
    private func process(_ connection: ClientConnection) {
        while !connection.closeWhenFlushed {
            if connection.exchange == nil {
                guard !connection.inbound.isEmpty else { return }
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
                connection.readEOF = true
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

    // MARK: Requests

    private func start(_ head: ClientRequestHead, on connection: ClientConnection) {
        if head.method == "CONNECT" { return connect(head, on: connection) }
        let url: HTTPURL
        if head.target.hasPrefix("/"), let origin = connection.origin, let resolved = HTTPURL(string: origin + head.target) {
            url = resolved
        } else if let absolute = HTTPURL(string: head.target), absolute.scheme == "http" || absolute.scheme == "https" {
            url = absolute
        } else if head.target.hasPrefix("/") {
            return connection.refuse(400, "this is a forward proxy: send the request target in absolute form (GET http://host/path), "
                                     + "e.g. with HTTP_PROXY=http://\(configuration.host):\(Socket.boundPort(listener))")
        } else {
            return connection.refuse(400, "the request target is not an http or https URL: \(head.target.prefix(200))")
        }
        let framing: BodyFraming
        switch RequestHeadParser.framing(of: head) {
        case .success(let value): framing = value
        case .failure(let error):
            return refuseFraming(error, request: HTTPRequest(method: head.method, url: url, headers: head.headers), on: connection)
        }
        var headers = HopByHop.removing(from: head.headers)
        // RFC 9112 §3.2.2: for an absolute-form target, Host is the target's authority.
        if let index = headers.firstIndex(where: { HTTPHeader.namesMatch($0.name, "Host") }), connection.origin == nil {
            headers[index].value = url.authority
            var seen = false
            headers.removeAll { header in
                guard HTTPHeader.namesMatch(header.name, "Host") else { return false }
                defer { seen = true }
                return seen
            }
        }
        if let via = configuration.via { headers.append(HTTPHeader(name: "Via", value: "\(head.version) \(via)")) }
        var options = HTTPRequest.Options()
        options.followRedirects = false
        options.compressed = false
        let request = HTTPRequest(method: head.method, url: url, headers: headers, options: options)
        let plan = ProxyExchange.Plan(method: head.method, clientIsHTTP10: head.isHTTP10, clientWantsClose: head.wantsClose,
                                      expectsContinue: head.expectsContinue && framing != .none && !head.isHTTP10, // RFC 9110 §10.1.1
                                      bodyLength: { if case .length(let n) = framing { n } else { nil } }(),
                                      hasBody: framing != .none, via: configuration.via)
        let exchange = ProxyExchange(plan: plan, wake: { [control] in control.wake() })
        let task = manager.streamTask(with: request, body: framing == .none ? nil : exchange, consumer: exchange,
                                      streamOptions: StreamOptions(keptBodyBytes: configuration.keptBodyBytes, verbatimHead: true))
        exchange.attach(task)
        connection.exchange = exchange
        connection.body = framing == .none ? nil : BodyDecoder(framing)
        if framing == .chunked, !plan.expectsContinue {
            connection.deferredStart = task // (a client waiting for 100 Continue sends nothing until the upstream asks)
        } else {
            resume(task, exchange)
        }
    }

    private func resume(_ task: HTTPTask, _ exchange: ProxyExchange) {
        do {
            try task.resume()
        } catch {
            exchange.didFinish(TransferError(code: .other, message: "\(error)"))
        }
    }

    /// A request whose framing is malformed (`Content-Length` with `Transfer-Encoding`, two lengths,
    /// a coding other than chunked) is not sent: its task is created and fails at once saying why,
    /// so the inspector shows it, and the client gets the status and reason.
    private func refuseFraming(_ error: ProxyError, request: HTTPRequest, on connection: ClientConnection) {
        let task = manager.streamTask(with: request, body: nil, consumer: RefusedExchange(),
                                      streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: true))
        try? task.failBeforeSending(TransferError(code: .protocolError, message: error.description))
        connection.refuse(error.status, error.description)
    }

    // MARK: CONNECT

    private func connect(_ head: ClientRequestHead, on connection: ClientConnection) {
        guard let (host, port) = Self.authority(head.target),
              let report = TunnelReport(manager: manager, request: head, host: host, port: port, announce: interception == nil) else {
            return connection.refuse(400, "CONNECT needs host:port (a host name or an IP address), got \(head.target.prefix(200))")
        }
        if let interception {
            do throws(ProxyError) {
                let context = try interception.context(for: host)
                guard let tls = TLSTransport(context: context, fd: connection.fd) else { throw ProxyError("cannot start TLS") }
                connection.pendingOut.append("HTTP/1.1 200 Connection established\r\n\r\n")
                connection.mode = .handshake(ClientConnection.Handshake(host: host, port: port, connect: head, tls: tls))
            } catch {
                report.announce()
                report.end(failure: error.description, code: .tlsFailure)
                connection.refuse(502, error.description)
            }
            return
        }
        connection.mode = .connecting
        let serial = connection.serial
        let timeout = configuration.connectTimeout
        let control = self.control
        DispatchQueue.global().async {
            let result = Result { () throws(ProxyError) -> Int32 in try Socket.connect(host: host, port: port, timeout: timeout) }
            control.inbox.withLock { inbox in
                if inbox.stopped {
                    if case .success(let fd) = result { Glibc.close(fd) } // nobody will take it
                } else {
                    inbox.connected.append((serial, result))
                }
            }
            control.wake()
        }
        pendingTunnels[serial] = report
    }

    private var pendingTunnels: [Int: TunnelReport] = [:]

    private func tunnelConnected(_ serial: Int, _ result: Result<Int32, ProxyError>) {
        guard let report = pendingTunnels.removeValue(forKey: serial) else {
            if case .success(let fd) = result { Glibc.close(fd) }
            return
        }
        guard let connection = connections[serial], !connection.closed else {
            if case .success(let fd) = result { Glibc.close(fd) }
            report.end(failure: "the client closed the connection while the tunnel was connecting")
            return
        }
        switch result {
        case .success(let fd):
            report.connected()
            connection.pendingOut.append("HTTP/1.1 200 Connection established\r\n\r\n")
            let tunnel = Tunnel(upstream: fd, report: report)
            connection.mode = .tunnel(tunnel)
            // Bytes the client sent after the CONNECT head (it may not wait for the reply) go first.
            if !connection.inbound.isEmpty {
                connection.inbound.withBytes { tunnel.fromClient($0) }
                connection.inbound.removeAll()
            }
        case .failure(let error):
            report.end(failure: error.description)
            connection.refuse(502, error.description)
            connection.mode = .http
        }
    }

    /// `host:port` of a CONNECT target: a host name (letters, digits, `.`, `-`, `_`), an IPv4
    /// address, or an IPv6 address in brackets.
    static func authority(_ target: String) -> (String, Int)? {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        let written = target[..<colon]
        if written.hasPrefix("["), written.hasSuffix("]") {
            let address = String(written.dropFirst().dropLast())
            var scratch = in6_addr()
            return inet_pton(AF_INET6, address, &scratch) == 1 ? (address, port) : nil
        }
        let nameBytes: (UInt8) -> Bool = { $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F) }
        guard !written.isEmpty, written.count <= 253, written.utf8.allSatisfy(nameBytes) else { return nil }
        return (String(written), port)
    }
}
