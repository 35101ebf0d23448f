import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// A WebSocket through the proxy, recorded from the bytes as they are relayed (the relay itself
/// never changes them): a task created with the upgrade request as the client sent it, the host's
/// response head (`101 Switching Protocols`, or whatever it answered), then a `message` event for
/// every message and control frame each way, and `completed` when the connection closes. Frames
/// that break RFC 6455 stop the recording of that direction, said in a `log` line of the task; the
/// bytes keep flowing.
final class WebSocketReport: TunnelEvents {
    /// A head larger than this is no upgrade request or response worth reading.
    static let maxHeadBytes = 64 << 10
    /// Payload bytes kept per message (the rest is counted).
    static let keptBytes = 256 << 10

    /// The request that goes to the host first, in origin-form (empty inside a tunnel: the client's own bytes go).
    let upgradeRequest: [UInt8]
    private let manager: SessionManager
    private let bus: EventBus
    /// Where it goes: `ws://` or `wss://` (inside an intercepted tunnel: TLS to the host).
    let url: HTTPURL
    private let id: TaskID
    private let started = Date().timeIntervalSince1970
    private var connectedAt: Double?
    private var responseBytes: [UInt8] = []
    private var head: HTTPResponseHead?
    private var upgraded = false
    private var fromClient = WebSocketFrameParser(direction: .send, keptBytes: keptBytes)
    private var fromHost = WebSocketFrameParser(direction: .receive, keptBytes: keptBytes)
    private var clientBroken = false, hostBroken = false
    private var messages = 0
    private var up: Int64 = 0
    private var down: Int64 = 0
    private var ended = false

    /// Whether `head` asks to become a WebSocket: `GET` with `Upgrade: websocket` (RFC 6455 §4.1).
    static func isUpgrade(_ head: ClientRequestHead) -> Bool {
        head.method == "GET" && head.headers.values(for: "Upgrade").contains { value in
            value.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == "websocket" }
        }
    }

    /// - Parameters:
    ///   - url: where it goes, `ws://host:port/path`.
    ///   - tunnelled: the client speaks to the host through a CONNECT tunnel (its bytes go as they
    ///     are); otherwise it sent the request to the proxy in absolute-form, and the request that
    ///     goes to the host is made here: origin-form, `Host` the target's, the proxy's own fields left out.
    init(manager: SessionManager, request: ClientRequestHead, url: HTTPURL, tunnelled: Bool) {
        self.manager = manager
        bus = manager.bus
        self.url = url
        id = manager.reserveTaskID()
        var headers = request.headers
        if !tunnelled {
            headers.removeAll { ["proxy-authorization", "proxy-connection"].contains($0.name.lowercased()) }
            if let host = headers.firstIndex(where: { HTTPHeader.namesMatch($0.name, "Host") }) { headers[host].value = url.authority }
        }
        let target = tunnelled || request.target.hasPrefix("/") ? request.target : url.requestTarget
        upgradeRequest = tunnelled ? [] : Array(("GET \(target) HTTP/1.1\r\n" + headers.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n").utf8)
        let sent = RequestHead(url: url, method: "GET", target: target, httpVersion: "HTTP/\(request.version)", headers: headers,
                               size: tunnelled ? request.size : upgradeRequest.count)
        bus.post([TaskEvent(task: id, kind: .created(TaskDescription(kind: .data, name: "websocket",
                                                                     request: HTTPRequest(method: "GET", url: url, headers: request.headers)))),
                  TaskEvent(task: id, kind: .resumed),
                  TaskEvent(task: id, kind: .requestSent(sent))])
    }

    var replyOnConnect: String? { nil } // the host's own response goes back

    func connected() { connectedAt = Date().timeIntervalSince1970 }

    func sent(_ bytes: UnsafeRawBufferPointer) {
        up += Int64(bytes.count)
        guard upgraded, !clientBroken else { return }
        do throws(WebSocketProtocolError) {
            try fromClient.feed(bytes) { post($0) }
        } catch {
            clientBroken = true
            log("the client's frames break RFC 6455 (\(error)): the rest of them is relayed but not recorded")
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        down += Int64(bytes.count)
        var rest = bytes
        if head == nil {
            let alreadyHad = responseBytes.count
            responseBytes += bytes.prefix(Self.maxHeadBytes - alreadyHad)
            guard let end = responseBytes.firstRange(of: [13, 10, 13, 10]) else {
                if responseBytes.count >= Self.maxHeadBytes {
                    log("the host's answer has no HTTP response head in its first 64 KB: nothing more is recorded")
                    head = HTTPResponseHead(url: url, httpVersion: "", status: 0, reason: "", headers: [])
                }
                return
            }
            let headLength = end.upperBound
            rest = UnsafeRawBufferPointer(rebasing: bytes[(headLength - alreadyHad)...]) // what came after the head
            let parsed = Self.parseResponseHead(Array(responseBytes[..<headLength]), url: url)
            head = parsed
            responseBytes = []
            bus.post(TaskEvent(task: id, kind: .response(parsed)))
            upgraded = parsed.status == 101
            if upgraded, let deflate = PermessageDeflate.agreed(in: parsed) {
                fromClient.inflater = deflate.client
                fromHost.inflater = deflate.host
            }
        }
        guard upgraded, !hostBroken, rest.count > 0 else { return }
        do throws(WebSocketProtocolError) {
            try fromHost.feed(rest) { post($0) }
        } catch {
            hostBroken = true
            log("the host's frames break RFC 6455 (\(error)): the rest of them is relayed but not recorded")
        }
    }

    private func post(_ message: WebSocketMessage) {
        messages += 1
        bus.post(TaskEvent(task: id, kind: .message(StreamMessage(message, index: messages))))
    }

    private func log(_ text: String) {
        bus.post(TaskEvent(task: id, kind: .scriptLog(ScriptLog(level: .error, text: "websocket: " + text))))
    }

    func end(failure: String?, code: TransferError.Code?) {
        guard !ended else { return }
        ended = true
        RelayEnd(task: id, started: started, connectedAt: connectedAt, head: head, sent: up, received: down, kind: "websocket")
            .post(on: bus, failure: failure, code: code, closedBeforeAnswer: "the connection closed before the host answered")
    }

    /// `HTTP/1.1 101 Switching Protocols` and its fields (CRLF or LF line ends).
    static func parseResponseHead(_ bytes: [UInt8], url: HTTPURL) -> HTTPResponseHead {
        let lines = String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: true) { $0 == "\r\n" || $0 == "\n" }
        let status = lines.first.map { $0.split(separator: " ", maxSplits: 2) } ?? []
        let version = status.first.map { $0.hasPrefix("HTTP/") ? String($0.dropFirst(5)) : String($0) } ?? ""
        let headers = lines.dropFirst().compactMap { line -> HTTPHeader? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeader(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingWhitespace())
        }
        return HTTPResponseHead(url: url, httpVersion: version, status: status.count > 1 ? Int(status[1]) ?? 0 : 0,
                                reason: status.count > 2 ? String(status[2]) : "", headers: headers, size: bytes.count)
    }
}
