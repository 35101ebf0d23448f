import CTLS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// A request from a client: checked, turned into a streaming task, and sent on (a chunked body
/// once its first chunk size is read and good); malformed framing refused with a failed task.
extension ProxyLoop {
    func start(_ head: ClientRequestHead, on connection: ClientConnection) {
        // A request inside an intercepted tunnel was let in with its CONNECT.
        if let credentials = configuration.credentials, connection.origin == nil, !credentials.areSent(in: head.headers) {
            return refuseUnauthenticated(head, on: connection)
        }
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
        if WebSocketReport.isUpgrade(head) { return relayWebSocket(head, url: url, on: connection) }
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
                                      streamOptions: StreamOptions(keptBodyBytes: configuration.keptBodyBytes, verbatimHead: true,
                                                                   keptRequestBodyBytes: configuration.keptBodyBytes))
        exchange.attach(task)
        connection.exchange = exchange
        connection.body = framing == .none ? nil : BodyDecoder(framing)
        if framing == .chunked, !plan.expectsContinue {
            connection.deferredStart = task // (a client waiting for 100 Continue sends nothing until the upstream asks)
        } else {
            resume(task, exchange)
        }
    }

    /// `GET http://host/path` with `Upgrade: websocket`: the request goes to the host as it came (in
    /// origin-form) over a connection of its own, and from then on bytes are relayed both ways and
    /// recorded (`WebSocketReport`). Inside an intercepted tunnel it is `wss://`: the connection to
    /// the host is TLS, verified as the proxy's other requests are (`--cacert`, `--insecure`).
    func relayWebSocket(_ head: ClientRequestHead, url: HTTPURL, on connection: ClientConnection) {
        let secure = url.scheme == "https"
        let host = url.host.containsBytes(":") ? "[\(url.host)]" : url.host
        let authority = secure && url.effectivePort == 443 ? host : host + ":\(url.effectivePort)"
        let target = HTTPURL(string: "\(secure ? "wss" : "ws")://\(authority)\(url.requestTarget)") ?? url
        let report = WebSocketReport(manager: manager, request: head, url: target, tunnelled: false)
        open(host: url.host, port: url.effectivePort, for: connection, report: report)
    }

    /// The TLS client settings for hosts the proxy itself speaks TLS to (a `wss://` WebSocket), made once.
    func hostTLS() throws(ProxyError) -> OpaquePointer {
        if let upstreamTLS { return upstreamTLS }
        var error = [CChar](repeating: 0, count: 256)
        guard let client = ctls_client_new(manager.configuration.caFile, manager.configuration.insecure ? 1 : 0, &error, error.count) else {
            throw ProxyError(String(cBuffer: error))
        }
        upstreamTLS = client
        return client
    }

    func resume(_ task: HTTPTask, _ exchange: ProxyExchange) {
        do {
            try task.resume()
        } catch {
            exchange.didFinish(TransferError(code: .other, message: "\(error)"))
        }
    }

    /// A request without the `--proxy-auth` credentials: 407 with `Proxy-Authenticate: Basic`, and
    /// a failed task (a tunnel's for a CONNECT) that says so, so every refused attempt is in the table.
    func refuseUnauthenticated(_ head: ClientRequestHead, on connection: ClientConnection) {
        let reason = ProxyCredentials.refusal(sent: head.headers)
        if head.method == "CONNECT" {
            if let (host, port) = Self.authority(head.target),
               let report = TunnelReport(manager: manager, request: head, host: host, port: port) {
                report.end(failure: reason, code: .other)
            }
        } else {
            let url = HTTPURL(string: head.target) ?? HTTPURL(string: "http://proxy.invalid/")!
            let task = manager.streamTask(with: HTTPRequest(method: head.method, url: url, headers: head.headers), body: nil,
                                          consumer: RefusedExchange(), streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: true))
            try? task.failBeforeSending(TransferError(code: .other, message: reason))
        }
        connection.refuse(407, reason, headers: ["Proxy-Authenticate: Basic realm=\"reqtop\", charset=\"UTF-8\""])
    }

    /// A request whose framing is malformed (`Content-Length` with `Transfer-Encoding`, two lengths,
    /// a coding other than chunked) is not sent: its task is created and fails at once saying why,
    /// so the inspector shows it, and the client gets the status and reason.
    func refuseFraming(_ error: ProxyError, request: HTTPRequest, on connection: ClientConnection) {
        let task = manager.streamTask(with: request, body: nil, consumer: RefusedExchange(),
                                      streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: true))
        try? task.failBeforeSending(TransferError(code: .protocolError, message: error.description))
        connection.refuse(error.status, error.description)
    }
}
