import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// CONNECT: a tunnel relayed as it is, or, with `--intercept`, decrypted with a minted certificate.
extension ProxyLoop {
    func connect(_ head: ClientRequestHead, on connection: ClientConnection) {
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
        open(host: host, port: port, for: connection, report: report)
    }

    /// Connects to `host:port` off the proxy thread; `tunnelConnected` takes it from there.
    func open(host: String, port: Int, for connection: ClientConnection, report: any TunnelEvents) {
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


    func tunnelConnected(_ serial: Int, _ result: Result<Int32, ProxyError>) {
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
            var host: ConnectionTransport?
            if let webSocket = report as? WebSocketReport, webSocket.url.scheme == "wss" {
                do throws(ProxyError) {
                    host = try TLSTransport(client: try hostTLS(), fd: fd, host: webSocket.url.host)
                } catch {
                    Glibc.close(fd)
                    report.end(failure: error.description, code: .tlsFailure)
                    connection.refuse(502, error.description)
                    connection.mode = .http
                    return
                }
            }
            report.connected()
            if let reply = report.replyOnConnect { connection.pendingOut.append(reply) }
            let tunnel = Tunnel(upstream: fd, host: host, report: report)
            if let webSocket = report as? WebSocketReport { webSocket.upgradeRequest.withUnsafeBytes { tunnel.toUpstream.append($0) } }
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
