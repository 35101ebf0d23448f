import CHTTP2
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// The server side of a client's HTTP/2 connection (ALPN `h2` inside an intercepted tunnel, or
/// cleartext prior knowledge), on the proxy thread. nghttp2 reads and writes the frames
/// (`CHTTP2`); this keeps the streams: each request is a streaming task with a `ProxyExchange`,
/// and each response goes back on its stream as the client's flow-control window allows.
final class HTTP2Session {
    /// What the client's frames meant.
    enum Event {
        /// A request's header block (pseudo-header fields included, as received); `oversized` when it
        /// was cut at 64 KB.
        case request(stream: Int32, fields: [HTTPHeader], endStream: Bool, oversized: Bool)
        case data(stream: Int32, bytes: UnsafeRawBufferPointer)
        /// The request's end; `trailers` when it ended with a trailer block.
        case end(stream: Int32, trailers: [HTTPHeader])
        /// The stream closed; `errorCode` 0 when both sides ended it, else the reset's code.
        case closed(stream: Int32, errorCode: UInt32)
    }

    /// A request in progress on a stream.
    struct Stream {
        var exchange: ProxyExchange
        var task: HTTPTask
        var responded = false
        var finished = false
        /// Body bytes the response announced (`content-length`) and passed so far: the stream ends with
        /// the last of them, as clients expect (curl resets a stream whose body is complete but not ended).
        var announced: Int64?
        var passed: Int64 = 0
    }

    /// Open streams the client may have at once (SETTINGS_MAX_CONCURRENT_STREAMS).
    static let maxConcurrentStreams: UInt32 = 100
    /// Response bytes a stream holds for the client's window before its exchange stops taking more.
    static let streamBuffer = 256 << 10

    private let server: OpaquePointer
    var streams: [Int32: Stream] = [:]
    /// Why the connection ended, when it failed (a flood, a protocol error).
    private(set) var failure: String?
    /// The failure was shown (on the tasks it cut short, or a task of its own).
    var failureReported = false

    init?() {
        guard let server = ch2_server_new(Self.maxConcurrentStreams) else { return nil }
        self.server = server
    }

    deinit { ch2_server_free(server) }

    /// Feeds what the client sent; false when the connection failed (`failure` says why; a GOAWAY
    /// saying so may still be written).
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        if ch2_server_feed(server, base, bytes.count) < 0 {
            failure = String(cString: ch2_server_error(server))
            return false
        }
        return true
    }

    /// Hands each queued event to `handle`; the bytes of a `.data` event are valid during the call only.
    func drainEvents(_ handle: (Event) -> Void) {
        var event = ch2_event()
        while ch2_server_next_event(server, &event) == 1 {
            switch Int(event.kind) {
            case Int(CH2_EVENT_REQUEST):
                handle(.request(stream: event.stream_id, fields: Self.fields(event), endStream: event.end_stream != 0,
                                oversized: event.error_code != 0))
            case Int(CH2_EVENT_DATA):
                handle(.data(stream: event.stream_id, bytes: UnsafeRawBufferPointer(start: event.data, count: event.length)))
            case Int(CH2_EVENT_END):
                handle(.end(stream: event.stream_id, trailers: Self.fields(event)))
            case Int(CH2_EVENT_CLOSED):
                handle(.closed(stream: event.stream_id, errorCode: event.error_code))
            default:
                break
            }
        }
    }

    private static func fields(_ event: ch2_event) -> [HTTPHeader] {
        guard let headers = event.headers else { return [] }
        return (0..<event.header_count).map { i in
            let field = headers[i]
            return HTTPHeader(name: String(decoding: UnsafeBufferPointer(start: field.name, count: field.name_length), as: UTF8.self),
                              value: String(decoding: UnsafeBufferPointer(start: field.value, count: field.value_length), as: UTF8.self))
        }
    }

    /// Sends a response head on `stream` (`interim`: a 1xx before the final one). False when the stream is gone.
    @discardableResult
    func respond(_ stream: Int32, status: Int, headers: [HTTPHeader], interim: Bool = false) -> Bool {
        let fields = [HTTPHeader(name: ":status", value: String(status))] + headers
        // Names and values one after another in one buffer; nghttp2 copies them.
        var bytes: [UInt8] = []
        var spans: [(name: Range<Int>, value: Range<Int>)] = []
        for field in fields {
            let name = bytes.count..<(bytes.count + field.name.utf8.count)
            bytes.append(contentsOf: field.name.utf8)
            let value = bytes.count..<(bytes.count + field.value.utf8.count)
            bytes.append(contentsOf: field.value.utf8)
            spans.append((name, value))
        }
        let status = bytes.withUnsafeBufferPointer { all -> Int32 in
            let base = all.baseAddress
            let headers = spans.map { span in
                ch2_header(name: base.map { $0 + span.name.lowerBound }, name_length: span.name.count,
                           value: base.map { $0 + span.value.lowerBound }, value_length: span.value.count)
            }
            return headers.withUnsafeBufferPointer { ch2_server_respond(server, stream, $0.baseAddress, $0.count, interim ? 1 : 0) }
        }
        return status == 0
    }

    /// Appends response body bytes to `stream`; how many it took (none once it holds `streamBuffer`).
    func append(_ stream: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        let room = Self.streamBuffer - ch2_server_buffered(server, stream)
        guard room > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let n = min(room, bytes.count)
        return ch2_server_append(server, stream, base, n) == 0 ? n : 0
    }

    func finish(_ stream: Int32) { _ = ch2_server_finish(server, stream) }

    /// Resets `stream` (INTERNAL_ERROR by default).
    func reset(_ stream: Int32, code: UInt32 = 2) { _ = ch2_server_reset(server, stream, code) }

    /// Ends the connection with GOAWAY (`code` 0: gracefully, the streams begun are still answered).
    func goAway(code: UInt32 = 0) { _ = ch2_server_goaway(server, code) }

    /// Writes the frames waiting with `write` (which returns how many bytes it took).
    func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        while true {
            var bytes: UnsafePointer<UInt8>?
            let count = ch2_server_output(server, &bytes)
            guard count > 0, let bytes else { return }
            let n = write(UnsafeRawBufferPointer(start: bytes, count: count))
            ch2_server_wrote(server, n)
            if n == 0 { return } // blocked (or failed): TLS takes one record per write, so a short write is not
        }
    }

    /// Whether the connection still reads or writes.
    var isOpen: Bool { ch2_server_is_open(server) != 0 }

    /// Bytes of request bodies waiting for the engine, over all streams.
    var bufferedRequestBodies: Int { streams.values.reduce(0) { $0 + $1.exchange.bufferedBody } }

    /// The client went away: every request still running is cancelled.
    func close() {
        for stream in streams.values { stream.exchange.clientWentAway() }
        streams.removeAll()
    }
}
