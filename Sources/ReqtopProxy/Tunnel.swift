import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// What a relay tells about itself as it goes: a CONNECT tunnel (`TunnelReport`) or a WebSocket
/// (`WebSocketReport`) — the bytes each way, the host answering, the end.
protocol TunnelEvents: AnyObject {
    /// What the client is told once the host accepted the connection (nil: nothing, the host answers).
    var replyOnConnect: String? { get }
    /// The host accepted the connection.
    func connected()
    /// Bytes from the client, on their way to the host.
    func sent(_ bytes: UnsafeRawBufferPointer)
    /// Bytes from the host, on their way to the client.
    func received(_ bytes: UnsafeRawBufferPointer)
    /// The relay ended (`failure` says why when it was not a clean close of both sides).
    func end(failure: String?, code: TransferError.Code?)
}

extension TunnelEvents {
    func end(failure: String?) { end(failure: failure, code: nil) }
}

/// A relay: bytes passed both ways between the client and its host, untouched, each way through a
/// bounded buffer (a side that does not read stops the other from being read). A CONNECT tunnel,
/// or a WebSocket once its upgrade request is on its way.
final class Tunnel {
    static let bufferLimit = 1 << 20

    let upstream: Int32
    /// The byte stream to the host: the socket, or TLS over it (`wss://` inside an intercepted tunnel).
    let host: ConnectionTransport
    let report: any TunnelEvents
    var toUpstream = ByteQueue()
    var toClient = ByteQueue()
    var upstreamEOF = false
    var upstreamBlockedOnWrite = false
    /// The host's TLS needs the socket writable to go on reading.
    var upstreamReadNeedsWritable = false
    /// The client's end was passed on (`shutdown` of the upstream's write side).
    var clientEOFForwarded = false
    /// The host's end was passed on (`shutdown` of the client's write side).
    var clientWriteShut = false
    var failure: String?
    /// What kind of failure: a TLS handshake with the host that failed is `tlsFailure`.
    private var failureCode: TransferError.Code?
    /// Some bytes came from the host.
    private(set) var receivedAny = false
    private(set) var closed = false

    init(upstream: Int32, host: ConnectionTransport? = nil, report: any TunnelEvents) {
        self.upstream = upstream
        self.host = host ?? SocketTransport(fd: upstream, resetIsFailure: true)
        self.report = report
    }

    var upstreamPollEvents: Int16 {
        var events: Int16 = 0
        if !upstreamEOF, toClient.count < Self.bufferLimit { events |= Int16(POLLIN) }
        if upstreamBlockedOnWrite || upstreamReadNeedsWritable { events |= Int16(POLLOUT) }
        return events
    }

    /// The host's TLS holds bytes already read from the socket: they are read without waiting for it.
    var hostHasBufferedInput: Bool { !upstreamEOF && toClient.count < Self.bufferLimit && host.hasBufferedInput }

    func fromClient(_ bytes: UnsafeRawBufferPointer) {
        toUpstream.append(bytes)
        report.sent(bytes)
    }

    /// Reads what the host sent, while there is room.
    func readUpstream() {
        upstreamReadNeedsWritable = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !upstreamEOF, toClient.count < Self.bufferLimit {
            switch buffer.withUnsafeMutableBytes({ host.read(into: $0) }) {
            case .bytes(let n):
                receivedAny = true
                buffer.withUnsafeBytes { bytes in
                    let read = UnsafeRawBufferPointer(rebasing: bytes[..<n])
                    toClient.append(read)
                    report.received(read)
                }
            case .closed:
                upstreamEOF = true
            case .wouldBlock(let wantsWrite):
                upstreamReadNeedsWritable = wantsWrite
                return
            case .failed(let reason):
                fail(reason)
                upstreamEOF = true
            }
        }
    }

    /// The host's connection reported an error (a reset): the tunnel ends.
    func upstreamFailed() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(upstream, SOL_SOCKET, SO_ERROR, &error, &length)
        fail(error == 0 ? "reset" : String(cString: strerror(error)))
        upstreamEOF = true
    }

    /// The first failure is the one said (a later write fails for the same reason, or none at all).
    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = "the host's connection failed: \(reason)"
        if host is TLSTransport, !receivedAny { failureCode = .tlsFailure }
    }

    /// Writes the client's bytes to the host; passes the client's end on once all went.
    func flushUpstream(clientEOF: Bool) {
        upstreamBlockedOnWrite = false
        while !toUpstream.isEmpty, failure == nil {
            let result = toUpstream.withBytes { host.write($0) }
            switch result {
            case .bytes(let n):
                toUpstream.drop(n)
            case .wouldBlock:
                upstreamBlockedOnWrite = true
                return
            case .closed, .failed:
                if case .failed(let reason) = result { fail(reason) } else { fail("closed") }
                toUpstream.removeAll()
                upstreamEOF = true
                return
            }
        }
        if clientEOF, !clientEOFForwarded {
            clientEOFForwarded = true
            // Over TLS the host learns of the end from the WebSocket's close frames; the socket closes with the tunnel.
            if host is SocketTransport { shutdown(upstream, Int32(SHUT_WR)) }
        }
    }

    /// Writes the host's bytes to the client with `write` (which returns how many it took).
    func flushToClient(_ write: (UnsafeRawBufferPointer) -> Int) {
        while !toClient.isEmpty {
            let n = toClient.withBytes { write($0) }
            guard n > 0 else { return }
            toClient.drop(n)
        }
    }

    /// Both ways are done: every byte of each side's end has been passed on.
    func isFinished(clientEOF: Bool) -> Bool {
        failure != nil || (upstreamEOF && toClient.isEmpty && clientEOF && toUpstream.isEmpty)
    }

    func close() {
        guard !closed else { return }
        closed = true
        host.close()
        report.end(failure: failure, code: failureCode)
    }
}

/// Posts a tunnel's lifecycle on the manager's bus as a task of its own: created with the CONNECT
/// request, the client's head as `request`, the proxy's `200 Connection established` as
/// `response`, bytes each way as upload and download progress, `completed` (or `failed`) at the end.
/// A plain-text WebSocket inside the tunnel (a `ws://` client that tunnels, as most do) is recorded
/// as a task of its own too (`WebSocketReport`), from the bytes as they pass.
final class TunnelReport: TunnelEvents {
    /// Reserved when the task is announced: an intercepted CONNECT that never becomes a task takes no number.
    private(set) var id = TaskID(rawValue: 0)
    private let manager: SessionManager
    private let bus: EventBus
    private let url: HTTPURL
    private let started = Date().timeIntervalSince1970
    private var connectedAt: Double?
    private var head: HTTPResponseHead?
    private var up: Int64 = 0
    private var down: Int64 = 0
    private var lastProgress = 0.0
    private var ended = false

    private let request: ClientRequestHead
    private var announced = false

    /// nil when `host` and `port` make no URL. `announce` posts the task's first events now
    /// (otherwise `announce()` does, if it comes to that: an intercepted CONNECT is no task of its own).
    init?(manager: SessionManager, request: ClientRequestHead, host: String, port: Int, announce: Bool = true) {
        let authority = host.containsBytes(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard let url = HTTPURL(string: "https://\(authority)") else { return nil }
        self.url = url
        self.request = request
        self.manager = manager
        bus = manager.bus
        if announce { self.announce() }
    }

    func announce() {
        guard !announced else { return }
        announced = true
        id = manager.reserveTaskID()
        let described = HTTPRequest(method: "CONNECT", url: url, headers: request.headers)
        let sent = RequestHead(url: url, method: "CONNECT", target: request.target, httpVersion: "HTTP/\(request.version)",
                               headers: request.headers, size: request.size)
        bus.post([TaskEvent(task: id, kind: .created(TaskDescription(kind: .data, name: "tunnel", request: described))),
                  TaskEvent(task: id, kind: .resumed),
                  TaskEvent(task: id, kind: .requestSent(sent))])
    }

    var replyOnConnect: String? { "HTTP/1.1 200 Connection established\r\n\r\n" }
    /// A WebSocket seen inside the tunnel; `inside` becomes false once the first bytes say it is none.
    private var webSocket: WebSocketReport?
    private var sniffing = true
    private var firstBytes: [UInt8] = []

    /// The host accepted: the client gets `200 Connection established`.
    func connected() {
        connectedAt = Date().timeIntervalSince1970
        let reply = HTTPResponseHead(url: url, httpVersion: "1.1", status: 200, reason: "Connection established", headers: [],
                                     size: "HTTP/1.1 200 Connection established\r\n\r\n".utf8.count)
        head = reply
        bus.post(TaskEvent(task: id, kind: .response(reply)))
    }

    func sent(_ bytes: UnsafeRawBufferPointer) {
        up += Int64(bytes.count)
        progress()
        if sniffing { sniff(bytes) } else { webSocket?.sent(bytes) }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        down += Int64(bytes.count)
        progress()
        webSocket?.received(bytes)
    }

    /// Whether the tunnel's first bytes are a cleartext WebSocket upgrade request; if so, a task for it.
    private func sniff(_ bytes: UnsafeRawBufferPointer) {
        firstBytes += bytes.prefix(WebSocketReport.maxHeadBytes - firstBytes.count)
        switch firstBytes.withUnsafeBytes({ RequestHeadParser.parse($0) }) {
        case .incomplete where firstBytes.count < WebSocketReport.maxHeadBytes && firstBytes.first != 0x16: // (0x16: a TLS handshake)
            return
        case .head(let head, _) where WebSocketReport.isUpgrade(head):
            // Cleartext inside the tunnel: `ws://` to the tunnel's host and port.
            let authority = (url.host.containsBytes(":") ? "[\(url.host)]" : url.host) + ":\(url.effectivePort)"
            if let target = HTTPURL(string: "ws://\(authority)\(head.target.hasPrefix("/") ? head.target : "/")") {
                webSocket = WebSocketReport(manager: manager, request: head, url: target, tunnelled: true)
                webSocket?.connected()
                firstBytes.withUnsafeBytes { webSocket?.sent($0) }
            }
        default:
            break
        }
        sniffing = false
        firstBytes = []
    }

    private func progress(force: Bool = false) {
        let now = Date().timeIntervalSince1970
        guard force || now - lastProgress >= 0.25 else { return }
        lastProgress = now
        bus.post([TaskEvent(task: id, time: now, kind: .progress(TransferProgress(direction: .upload, completed: up, total: -1))),
                  TaskEvent(task: id, time: now, kind: .progress(TransferProgress(direction: .download, completed: down, total: -1)))])
    }

    /// The tunnel closed (`failure` says why, when it was not a clean close of both sides).
    func end(failure: String?, code: TransferError.Code? = nil) {
        webSocket?.end(failure: failure, code: code)
        guard announced, !ended else { return }
        ended = true
        RelayEnd(task: id, started: started, connectedAt: connectedAt, head: head, sent: up, received: down, kind: "tunnel")
            .post(on: bus, failure: failure, code: code, closedBeforeAnswer: "the tunnel closed")
    }
}
