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
            close(listener)
            control.close()
        }
        var fds: [pollfd] = []
        var owners: [(connection: ClientConnection, upstream: Bool)] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: control.wakeRead, events: Int16(POLLIN), revents: 0))
            let accepting = connections.count < configuration.maxConnections
            fds.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            var immediate = false
            for connection in connections.values {
                fds.append(pollfd(fd: connection.hungUp ? -1 : connection.fd, events: connection.pollEvents, revents: 0))
                owners.append((connection, false))
                if case .tunnel(let tunnel) = connection.mode {
                    // A host that has closed is left out: its hang-up would wake every poll.
                    fds.append(pollfd(fd: tunnel.upstreamEOF ? -1 : tunnel.upstream, events: tunnel.upstreamPollEvents, revents: 0))
                    owners.append((connection, true))
                }
                if connection.transport.hasBufferedInput, connection.wantsRead { immediate = true }
            }
            let ready = poll(&fds, nfds_t(fds.count), immediate ? 0 : 1000)
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
                    if case .tunnel(let tunnel) = connection.mode, events != 0 { tunnel.readUpstream() }
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
            for connection in Array(connections.values) {
                if connection.transport.hasBufferedInput, connection.wantsRead, !connection.readAvailable() {
                    connection.closeWhenFlushed = true
                }
                service(connection)
            }
        }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while read(control.wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func acceptAll() {
        while connections.count < configuration.maxConnections, let fd = Socket.accept(listener) {
            nextSerial += 1
            connections[nextSerial] = ClientConnection(serial: nextSerial, fd: fd)
        }
    }

    // MARK: One connection

    /// Moves everything along that can move: parses requests, feeds bodies, writes responses,
    /// relays tunnels, and closes the connection when it is done.
    private func service(_ connection: ClientConnection) {
        switch connection.mode {
        case .http:
            process(connection)
        case .connecting:
            break
        case .tunnel(let tunnel):
            tunnel.flushUpstream(clientEOF: connection.readEOF)
        case .handshake(let handshake):
            interception?.continueHandshake(connection, context: handshake.context, host: handshake.host, port: handshake.port) { why in
                TunnelReport(manager: manager, request: handshake.connect, host: handshake.host, port: handshake.port)
                    .end(failure: why, code: .tlsFailure)
            }
            if case .http = connection.mode { process(connection) }
        }
        if !connection.flush() { return finish(connection) }
        if case .http = connection.mode, connection.exchange != nil { advance(connection) }
        if case .tunnel(let tunnel) = connection.mode {
            if tunnel.upstreamEOF, tunnel.toClient.isEmpty, !connection.blockedOnWrite, !connection.readEOF {
                shutdown(connection.fd, Int32(SHUT_WR)) // the host is done: so is the client's read side
            }
            if tunnel.isFinished(clientEOF: connection.readEOF) || connection.hungUp && tunnel.toUpstream.isEmpty {
                return finish(connection)
            }
        }
        let idle = connection.exchange == nil && !connection.hasPendingOutput
        if connection.closeWhenFlushed, !connection.hasPendingOutput || connection.closed { return finish(connection) }
        if connection.readEOF, idle, connection.body == nil, connection.inbound.isEmpty || !isHTTP(connection) {
            if case .tunnel = connection.mode { return }
            return finish(connection)
        }
    }

    private func isHTTP(_ connection: ClientConnection) -> Bool {
        if case .http = connection.mode { return true }
        return false
    }

    private func finish(_ connection: ClientConnection) {
        connection.close()
        connections[connection.serial] = nil
    }

    /// After a response was written whole: the next request, or the end of the connection.
    private func advance(_ connection: ClientConnection) {
        guard let exchange = connection.exchange else { return }
        let (done, close) = exchange.completion
        guard done else {
            if connection.readEOF, connection.body != nil { exchange.clientWentAway() }
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
                exchange.clientWentAway()
                connection.closeWhenFlushed = true
                return
            }
            if decoder.isDone {
                connection.body = nil
                exchange.endBody()
            } else {
                connection.body = decoder
                if connection.readEOF { exchange.clientWentAway() }
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
        case .failure(let error): return connection.refuse(400, error.description)
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
                                      expectsContinue: head.expectsContinue && framing != .none,
                                      bodyLength: { if case .length(let n) = framing { n } else { nil } }(), via: configuration.via)
        let exchange = ProxyExchange(plan: plan, wake: { [control] in control.wake() })
        let task = manager.streamTask(with: request, body: framing == .none ? nil : exchange, consumer: exchange,
                                      streamOptions: StreamOptions(keptBodyBytes: configuration.keptBodyBytes, verbatimHead: true))
        exchange.attach(task)
        connection.exchange = exchange
        connection.body = framing == .none ? nil : BodyDecoder(framing)
        do {
            try task.resume()
        } catch {
            exchange.didFinish(TransferError(code: .other, message: "\(error)"))
        }
    }

    // MARK: CONNECT

    private func connect(_ head: ClientRequestHead, on connection: ClientConnection) {
        guard let (host, port) = Self.authority(head.target) else {
            return connection.refuse(400, "CONNECT needs host:port, got \(head.target.prefix(200))")
        }
        if let interception {
            do {
                let context = try interception.context(for: host)
                connection.pendingOut.append("HTTP/1.1 200 Connection established\r\n\r\n")
                connection.mode = .handshake(ClientConnection.Handshake(host: host, port: port, connect: head, context: context))
            } catch {
                TunnelReport(manager: manager, request: head, host: host, port: port).end(failure: error.description, code: .tlsFailure)
                connection.refuse(502, error.description)
            }
            return
        }
        let report = TunnelReport(manager: manager, request: head, host: host, port: port)
        connection.mode = .connecting
        let serial = connection.serial
        let timeout = configuration.connectTimeout
        let control = self.control
        DispatchQueue.global().async {
            let result = Result { () throws(ProxyError) -> Int32 in try Socket.connect(host: host, port: port, timeout: timeout) }
            control.inbox.withLock { $0.connected.append((serial, result)) }
            control.wake()
        }
        pendingTunnels[serial] = report
    }

    private var pendingTunnels: [Int: TunnelReport] = [:]

    private func tunnelConnected(_ serial: Int, _ result: Result<Int32, ProxyError>) {
        guard let report = pendingTunnels.removeValue(forKey: serial) else {
            if case .success(let fd) = result { close(fd) }
            return
        }
        guard let connection = connections[serial], !connection.closed else {
            if case .success(let fd) = result { close(fd) }
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

    /// `host:port` of a CONNECT target (an IPv6 host in brackets).
    static func authority(_ target: String) -> (String, Int)? {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        var host = String(target[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        return (host, port)
    }
}
