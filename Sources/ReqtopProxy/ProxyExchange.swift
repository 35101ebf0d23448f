import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopSync

/// One proxied request and its response, between the proxy thread (the client's side) and the
/// engine thread (the upstream side, through a streaming task). The engine hands response bytes to
/// `consume`, framed for the client, and reads the client's body through `read`; the proxy thread
/// writes the framed bytes to the client and feeds the body in. Each side stops taking bytes when
/// the other falls behind (a bounded buffer each way), so memory stays flat and a slow client
/// slows the server down — and a suspended task stops both.
final class ProxyExchange: ResponseStreamConsumer, RequestBodySource {
    /// What the exchange needs to know of the client's request.
    struct Plan: Sendable {
        var method: String
        var clientIsHTTP10: Bool
        var clientWantsClose: Bool
        var expectsContinue: Bool
        /// The request body's length; nil when chunked (or absent: `hasBody`).
        var bodyLength: Int64?
        /// A request body comes (counted or chunked).
        var hasBody: Bool
        var via: String?
        /// The client speaks HTTP/2: the response head is kept for its stream (`takeHTTP2Head`) and
        /// the body bytes go as they are; the stream's frames carry the framing.
        var http2 = false
    }

    /// A response head for an HTTP/2 stream: the status and the fields, names in lower case.
    struct HTTP2Head {
        var status: Int
        var headers: [HTTPHeader]
        /// The body's length when known (0 for HEAD, 204 and 304): the stream ends with its last bytes.
        var bodyLength: Int64?
    }

    /// How the response body goes to the client.
    private enum Framing { case pending, none, length, chunked, untilClose }

    private struct State {
        var task: HTTPTask?
        var output = ByteQueue()
        var framing = Framing.pending
        var finished = false
        var closeAfter = false
        var consumerWaiting = false
        var body = ByteQueue()
        var bodyEnded = false
        var clientGone = false
        /// Why the client's body framing is malformed: the task fails and the client gets a 400.
        var malformed: String?
        var sourceWaiting = false
        var continueSent = false
        /// The body bytes the engine has read so far, kept while they are few, so libcurl can send
        /// them again on a fresh connection (a kept-alive one the server had just closed).
        var sent: [UInt8] = []
        var sentCount: Int64 = 0
        /// HTTP/2: the head not yet taken by the stream, whether an interim 100 is wanted, and whether
        /// the transfer failed after the head (the stream is then reset, not ended).
        var http2Head: HTTP2Head?
        var http2Continue = false
        var failedAfterHead = false
    }

    /// Up to this many first body bytes are kept for a resend.
    static let rewindable = 64 << 10

    /// Each direction buffers at most about this much before its producer pauses.
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    let plan: Plan
    private let wake: @Sendable () -> Void
    private let state = Protected(State())

    init(plan: Plan, wake: @escaping @Sendable () -> Void) {
        self.plan = plan
        self.wake = wake
    }

    func attach(_ task: HTTPTask) { state.withLock { $0.task = task } }

    // MARK: Engine thread: the response

    func didReceiveResponse(_ head: HTTPResponseHead) {
        var headers = HopByHop.removing(from: head.headers)
        let upstreamChunked = head.headers.contains(name: "Transfer-Encoding")
        let framing: Framing
        if plan.method == "HEAD" || head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
            framing = .none
        } else if !upstreamChunked, headers.contains(name: "Content-Length") {
            framing = .length
        } else {
            headers.removeAll { HTTPHeader.namesMatch($0.name, "Content-Length") }
            framing = plan.clientIsHTTP10 ? .untilClose : .chunked
            if framing == .chunked { headers.append(HTTPHeader(name: "Transfer-Encoding", value: "chunked")) }
        }
        if let via = plan.via { headers.append(HTTPHeader(name: "Via", value: "\(head.httpVersion) \(via)")) }
        if plan.http2 {
            // RFC 9113 §8.2.2: no connection-specific fields; names in lower case.
            headers.removeAll { HTTPHeader.namesMatch($0.name, "Transfer-Encoding") }
            let length: Int64? = framing == .none ? 0 : framing == .length ? headers.value(for: "Content-Length").flatMap { Int64($0) } : nil
            let head2 = HTTP2Head(status: head.status, headers: headers.map { HTTPHeader(name: $0.name.lowercased(), value: $0.value) },
                                  bodyLength: length)
            state.withLock { s in
                s.http2Head = head2
                s.framing = framing == .none ? .none : .length
            }
            return wake()
        }
        let wasEmpty = state.withLock { s -> Bool in
            // A response before the whole request body arrived (a 413, a 401) ends the connection: the
            // rest of that body cannot be told from a next request. The client is told so.
            let closeAfter = plan.clientWantsClose || framing == .untilClose || plan.hasBody && !s.bodyEnded
            var text = "HTTP/1.1 \(head.status) \(head.reason)\r\n"
            for header in headers { text += "\(header.name): \(header.value)\r\n" }
            if closeAfter { text += "Connection: close\r\n" }
            text += "\r\n"
            let wasEmpty = s.output.isEmpty
            s.output.append(text)
            s.framing = framing
            s.closeAfter = s.closeAfter || closeAfter
            return wasEmpty
        }
        if wasEmpty { wake() }
    }

    func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let outcome: Bool? = state.withLock { s in
            if s.output.count >= Self.highWater {
                s.consumerWaiting = true
                return nil
            }
            let wasEmpty = s.output.isEmpty
            switch s.framing {
            case .chunked:
                s.output.append(String(bytes.count, radix: 16) + "\r\n")
                s.output.append(bytes)
                s.output.append("\r\n")
            case .none:
                break // a body where none may be sent (HEAD, 204, 304) is not forwarded
            default:
                s.output.append(bytes)
            }
            return wasEmpty
        }
        guard let wasEmpty = outcome else { return false }
        if wasEmpty { wake() }
        return true
    }

    func didFinish(_ error: TransferError?) {
        state.withLock { s in
            s.finished = true
            if let error, plan.http2 {
                if s.framing == .pending {
                    let status = s.malformed != nil ? 400 : error.code == .timedOut ? 504 : 502
                    s.http2Head = HTTP2Head(status: status, headers: [HTTPHeader(name: "content-type", value: "text/plain; charset=utf-8")],
                                            bodyLength: nil)
                    s.framing = .length
                    s.output.append("reqtop proxy: " + (s.malformed ?? "\(error.code.rawValue): \(error.message)") + "\n")
                } else {
                    s.failedAfterHead = true
                }
            } else if let error {
                if s.framing == .pending, let malformed = s.malformed {
                    let body = "reqtop proxy: \(malformed)\n"
                    s.output.append("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
                } else if s.framing == .pending {
                    let status = error.code == .timedOut ? 504 : 502
                    let body = "reqtop proxy: \(error.code.rawValue): \(error.message)\n"
                    s.output.append("HTTP/1.1 \(status) \(status == 504 ? "Gateway Timeout" : "Bad Gateway")\r\n"
                                    + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
                                    + "Connection: close\r\n\r\n" + body)
                }
                s.closeAfter = true // after a head, closing is how the client learns the body is incomplete
            } else if s.framing == .chunked {
                s.output.append("0\r\n\r\n")
            } else if s.framing == .untilClose {
                s.closeAfter = true
            }
        }
        wake()
    }

    // MARK: Engine thread: the request body

    var length: Int64? { plan.bodyLength }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> RequestBodyRead {
        var wakeProxy = false
        let result: RequestBodyRead = state.withLock { s in
            if plan.expectsContinue, !s.continueSent, s.framing == .pending {
                // The upstream is ready for the body: now the client may send it.
                if plan.http2 { s.http2Continue = true } else { s.output.append("HTTP/1.1 100 Continue\r\n\r\n") }
                s.continueSent = true
                wakeProxy = true
            }
            if !s.body.isEmpty {
                let n = min(buffer.count, s.body.count)
                s.body.withBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
                if s.sentCount + Int64(n) <= Self.rewindable {
                    s.sent.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                } else {
                    s.sent.removeAll()
                }
                s.sentCount += Int64(n)
                let before = s.body.count
                s.body.drop(n)
                if before >= Self.lowWater, s.body.count < Self.lowWater { wakeProxy = true } // it may read from the client again
                return .bytes(n)
            }
            if let malformed = s.malformed { return .invalid(malformed) }
            if s.bodyEnded { return .end }
            if s.clientGone { return .failed("the client closed the connection before it sent the whole request body") }
            s.sourceWaiting = true
            return .wait
        }
        if wakeProxy { wake() }
        return result
    }

    func rewind(to offset: Int64) -> Bool {
        state.withLock { s in
            guard s.sentCount <= Self.rewindable, offset >= 0, offset <= s.sentCount else { return false }
            var again = ByteQueue()
            again.append(contentsOf: s.sent[Int(offset)...])
            s.body.withBytes { again.append($0) }
            s.body = again
            s.sent.removeSubrange(Int(offset)...)
            s.sentCount = offset
            return true
        }
    }

    // MARK: Proxy thread

    /// Bytes of the request body waiting for the engine.
    var bufferedBody: Int { state.withLock { $0.body.count } }

    func appendBody(_ bytes: UnsafeRawBufferPointer) {
        let ready = state.withLock { s -> HTTPTask? in
            s.body.append(bytes)
            return takeWaiting(&s.sourceWaiting, s.task)
        }
        ready?.streamIsReady()
    }

    func endBody() {
        state.withLock { s -> HTTPTask? in
            s.bodyEnded = true
            return takeWaiting(&s.sourceWaiting, s.task)
        }?.streamIsReady()
    }

    /// The client framed its body wrongly (`reason` says how): the task fails with a protocol error —
    /// at once when it was never started — and the client gets `400 Bad Request` with the reason,
    /// unless a response had begun.
    func clientSentMalformedBody(_ reason: String, started: Bool) {
        let task = state.withLock { s -> HTTPTask? in
            s.malformed = reason
            s.sourceWaiting = false
            return s.finished ? nil : s.task
        }
        guard let task else { return }
        if started {
            task.streamIsReady() // its next read fails it
        } else {
            try? task.failBeforeSending(TransferError(code: .protocolError, message: reason))
        }
    }

    /// The client went away: a body still being read fails, a running task is cancelled.
    func clientWentAway() {
        let task = state.withLock { s -> HTTPTask? in
            s.clientGone = true
            return s.finished ? nil : s.task
        }
        try? task?.cancel()
    }

    private func takeWaiting(_ flag: inout Bool, _ task: HTTPTask?) -> HTTPTask? {
        guard flag else { return nil }
        flag = false
        return task
    }

    /// Writes what is waiting for the client with `write` (which returns how many bytes it took);
    /// lets a paused response go on once the buffer is low again.
    func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        let ready = state.withLock { s -> HTTPTask? in
            while !s.output.isEmpty {
                let n = s.output.withBytes { write($0) }
                guard n > 0 else { break }
                s.output.drop(n)
            }
            guard s.consumerWaiting, s.output.count < Self.lowWater else { return nil }
            s.consumerWaiting = false
            return s.task
        }
        ready?.streamIsReady()
    }

    var hasOutput: Bool { state.withLock { !$0.output.isEmpty } }

    /// HTTP/2: the response head once it arrived (once), and whether the upstream asked for the
    /// body with `100 Continue` since last asked (once).
    func takeHTTP2Head() -> (head: HTTP2Head?, wantsContinue: Bool) {
        state.withLock { s in
            defer { s.http2Head = nil; s.http2Continue = false }
            return (s.http2Head, s.http2Continue)
        }
    }

    /// HTTP/2: the transfer failed after the head was passed on: the stream is reset.
    var failedAfterHead: Bool { state.withLock { $0.failedAfterHead } }

    /// The response is complete and written; `close` says whether the connection must close now.
    var completion: (done: Bool, close: Bool) {
        state.withLock { s in (s.finished && s.output.isEmpty, s.closeAfter) }
    }
}

/// The consumer of a task the proxy refused before sending it: nothing arrives, nothing is written
/// (the connection answers the client itself).
final class RefusedExchange: ResponseStreamConsumer {
    func didReceiveResponse(_ head: HTTPResponseHead) {}
    func consume(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
    func didFinish(_ error: TransferError?) {}
}
