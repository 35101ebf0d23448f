import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// A client speaking HTTP/2: each stream's request becomes a streaming task like an HTTP/1.1 one
/// (the same `ProxyExchange`, its response head kept for the stream), and its response goes back
/// on the stream as the client's window allows.
extension ProxyLoop {
    /// The connection's client preface `HTTP/2 prior knowledge` starts with (RFC 9113 §3.4).
    static let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Switches `connection` to HTTP/2, feeding it what the client already sent.
    func beginHTTP2(_ connection: ClientConnection) {
        guard let session = HTTP2Session() else {
            connection.readEOF = true
            connection.closeWhenFlushed = true
            return
        }
        connection.mode = .http2(session)
        let sent = connection.inbound.take(connection.inbound.count)
        _ = sent.withUnsafeBytes { session.feed($0) }
    }

    /// Moves every stream along: new requests, body bytes, response heads and bodies, ends and resets.
    func serviceHTTP2(_ connection: ClientConnection, _ session: HTTP2Session, now: Double) {
        session.drainEvents { event in handle(event, of: session, on: connection) }
        // Bytes move from the exchanges to the streams and on to the client until either side is full:
        // what the client's window took makes room for more, and nothing else would come back for it.
        while true {
            var moved = 0
            for id in Array(session.streams.keys) { moved += pump(id, session) }
            if !connection.flush() { return close(connection) }
            if moved == 0 || connection.blockedOnWrite { break }
        }
        if let failure = session.failure, !session.failureReported {
            // A flood or a protocol error ended the connection: what was running on it cannot be answered,
            // and each of its tasks says why; with none running, a failed task of its own does.
            session.failureReported = true
            for stream in session.streams.values {
                stream.exchange.clientWentAway()
                manager.bus.post(TaskEvent(task: stream.task.id, kind: .scriptLog(ScriptLog(level: .error, text: "http2: " + failure))))
            }
            if session.streams.isEmpty {
                let url = HTTPURL(string: (connection.origin ?? "http://\(configuration.host):\(Socket.boundPort(listener))") + "/")
                    ?? HTTPURL(string: "http://proxy.invalid/")!
                let task = manager.streamTask(with: HTTPRequest(method: "PRI", url: url, headers: []), body: nil, consumer: RefusedExchange(),
                                              streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: true))
                try? task.failBeforeSending(TransferError(code: .protocolError, message: failure))
            }
            session.streams.removeAll()
        }
        if !session.isOpen && !connection.hasPendingOutput { return close(connection) }
        if connection.readEOF || connection.hungUp, session.streams.isEmpty, !connection.hasPendingOutput { return close(connection) }
        if session.streams.isEmpty, now - connection.lastActivity > Self.idleTimeout {
            session.goAway()
            connection.lastActivity = now
        }
    }

    private func handle(_ event: HTTP2Session.Event, of session: HTTP2Session, on connection: ClientConnection) {
        switch event {
        case .request(let id, let fields, let endStream, let oversized):
            startStream(id, fields: fields, endStream: endStream, oversized: oversized, session: session, on: connection)
        case .data(let id, let bytes):
            session.streams[id]?.exchange.appendBody(bytes)
        case .end(let id, let trailers):
            guard let stream = session.streams[id] else { return }
            if !trailers.isEmpty {
                let names = trailers.map(\.name).joined(separator: ", ")
                manager.bus.post(TaskEvent(task: stream.task.id, kind: .scriptLog(ScriptLog(
                    level: .error, text: "http2: the request's trailer fields (\(names)) were not forwarded: the upstream request has none"))))
            }
            stream.exchange.endBody()
        case .closed(let id, let errorCode):
            guard let stream = session.streams.removeValue(forKey: id) else { return }
            if errorCode != 0 || !stream.finished { stream.exchange.clientWentAway() }
        }
    }

    /// A stream's request: checked like an HTTP/1.1 one, then sent on as a streaming task.
    private func startStream(_ id: Int32, fields: [HTTPHeader], endStream: Bool, oversized: Bool, session: HTTP2Session,
                             on connection: ClientConnection) {
        var pseudo: [String: String] = [:]
        var headers: [HTTPHeader] = []
        var cookies: [String] = []
        for field in fields {
            if field.name.hasPrefix(":") {
                pseudo[field.name] = field.value
            } else if field.name == "cookie" {
                // RFC 9113 §8.2.3: the crumbs are one field again for HTTP/1.1, joined with "; ".
                if cookies.isEmpty { headers.append(field) }
                cookies.append(field.value)
            } else {
                headers.append(field)
            }
        }
        if cookies.count > 1, let index = headers.firstIndex(where: { $0.name == "cookie" }) {
            headers[index].value = cookies.joined(separator: "; ")
        }
        let method = pseudo[":method"] ?? "GET"
        let path = pseudo[":path"] ?? "/"
        let scheme = pseudo[":scheme"] ?? "http"
        let authority = pseudo[":authority"] ?? headers.value(for: "host") ?? ""
        let target = connection.origin.map { $0 + path } ?? "\(scheme)://\(authority)\(path)"
        let url = HTTPURL(string: target) ?? HTTPURL(string: "http://proxy.invalid/")!
        let written = HTTPRequest(method: method, url: url, headers: headers)

        if let credentials = configuration.credentials, connection.origin == nil, !credentials.areSent(in: headers) {
            return refuse(id, 407, ProxyCredentials.refusal(sent: headers), request: written, session: session,
                          headers: [HTTPHeader(name: "proxy-authenticate", value: "Basic realm=\"reqtop\", charset=\"UTF-8\"")])
        }
        if oversized {
            return refuse(id, 431, "the request's header fields are over 64 KB", request: written, session: session)
        }
        if method == "CONNECT" {
            return refuse(id, 501, "CONNECT over HTTP/2 is not relayed (RFC 8441 is not offered): use HTTP/1.1 for tunnels and WebSockets",
                          request: written, session: session)
        }
        guard HTTPURL(string: target) != nil, url.scheme == "http" || url.scheme == "https" else {
            return refuse(id, 400, "the request target is not an http or https URL: \(target.prefix(200))", request: written, session: session)
        }
        var forwarded = HopByHop.removing(from: headers)
        if let via = configuration.via { forwarded.append(HTTPHeader(name: "via", value: "2 \(via)")) }
        var options = HTTPRequest.Options()
        options.followRedirects = false
        options.compressed = false
        let request = HTTPRequest(method: method, url: url, headers: forwarded, options: options)
        let length = headers.value(for: "content-length").flatMap { Int64($0.trimmingWhitespace()) }
        let expectsContinue = !endStream && headers.value(for: "expect")?.lowercased() == "100-continue"
        let plan = ProxyExchange.Plan(method: method, clientIsHTTP10: false, clientWantsClose: false, expectsContinue: expectsContinue,
                                      bodyLength: endStream ? nil : length, hasBody: !endStream, via: configuration.via, http2: true)
        let exchange = ProxyExchange(plan: plan, wake: { [control] in control.wake() })
        let task = manager.streamTask(with: request, body: endStream ? nil : exchange, consumer: exchange,
                                      streamOptions: StreamOptions(keptBodyBytes: configuration.keptBodyBytes, verbatimHead: true,
                                                                   keptRequestBodyBytes: configuration.keptBodyBytes))
        exchange.attach(task)
        session.streams[id] = HTTP2Session.Stream(exchange: exchange, task: task)
        resume(task, exchange)
    }

    /// Answers a stream the proxy will not send on with `status` and the reason, and shows it as a failed task.
    private func refuse(_ id: Int32, _ status: Int, _ reason: String, request: HTTPRequest, session: HTTP2Session,
                        headers: [HTTPHeader] = []) {
        let task = manager.streamTask(with: request, body: nil, consumer: RefusedExchange(),
                                      streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: true))
        try? task.failBeforeSending(TransferError(code: status == 407 ? .other : .protocolError, message: reason))
        let body = Array("reqtop proxy: \(reason)\n".utf8)
        session.respond(id, status: status, headers: headers + [HTTPHeader(name: "content-type", value: "text/plain; charset=utf-8"),
                                                                 HTTPHeader(name: "content-length", value: String(body.count))])
        _ = body.withUnsafeBytes { session.append(id, $0) }
        session.finish(id)
    }

    /// Passes on what the stream's exchange has: an interim 100, the head, body bytes, the end or a
    /// reset. Returns how many body bytes it passed.
    private func pump(_ id: Int32, _ session: HTTP2Session) -> Int {
        guard var stream = session.streams[id] else { return 0 }
        var moved = 0
        let exchange = stream.exchange
        let (head, wantsContinue) = exchange.takeHTTP2Head()
        if wantsContinue, !stream.responded { session.respond(id, status: 100, headers: [], interim: true) }
        if let head, !stream.responded {
            stream.responded = session.respond(id, status: head.status, headers: head.headers)
            stream.announced = head.bodyLength
            if !stream.responded { exchange.clientWentAway() }
        }
        if stream.responded, !stream.finished {
            exchange.flush { bytes in
                let n = session.append(id, bytes)
                moved += n
                return n
            }
            stream.passed += Int64(moved)
            if exchange.completion.done {
                if exchange.failedAfterHead { session.reset(id) } else { session.finish(id) }
                stream.finished = true
            } else if let announced = stream.announced, stream.passed >= announced {
                session.finish(id) // (the task's end follows; a failure after the whole body changes nothing the client can see)
                stream.finished = true
            }
        }
        session.streams[id] = stream
        return moved
    }
}
