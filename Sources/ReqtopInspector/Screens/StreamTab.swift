import Foundation
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopSync
import ReqtopTasks
import ReqtopTerminalUI

/// A streamed response's messages as they arrived (server-sent events, NDJSON lines, JSON array
/// elements): time since the request started, event name, id and size, then the data — JSON
/// pretty-printed — searchable with `/`. The view follows the tail while it is at the bottom.
struct StreamTab: DetailTabContent {
    let title = "Stream"
    var followsTheTail: Bool { true }
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent {
        guard !record.isWebSocket else { return .lines(["A WebSocket: its messages, both ways, are in the Messages tab (9)."]) }
        return .lines(context.streamLines.lines(for: record))
    }
}

/// A WebSocket's messages both ways as they went: time, direction (↑ sent by the client, ↓ received
/// from the host), kind (text, binary, close, ping, pong), size, then the text (JSON pretty-printed)
/// or a hex dump, and a close frame's code. Follows the tail as the Stream tab does.
struct MessagesTab: DetailTabContent {
    let title = "Messages"
    var followsTheTail: Bool { true }
    func content(of record: TaskRecord, in context: DetailTabContext) -> DetailContent {
        guard record.isWebSocket else {
            return .lines(["No WebSocket: the Messages tab lists the frames of a WebSocket through reqtop proxy.",
                           "A streamed response's events are in the Stream tab (8)."])
        }
        return .lines(context.streamLines.lines(for: record))
    }
}

/// The Stream and Messages tabs' lines, made once per message: a frame after a new message renders
/// only it, so a stream of ten thousand events costs each frame the new ones, not all of them. One
/// per detail screen; holds the lines of the task it last showed.
final class StreamTabLines: Sendable {
    private struct Cache {
        var task: TaskID?
        /// The lines of each message held, oldest first, from message `first`.
        var perMessage: [[String]] = []
        var first = 1
        var flat: [String] = []
    }

    private let cache = Protected(Cache())
    /// Data longer than this is shown as it came, not parsed for pretty-printing.
    static let prettyLimit = 64 << 10

    func lines(for record: TaskRecord) -> [String] {
        guard let log = record.messages, log.count > 0 else {
            if record.isWebSocket { return [record.state.isTerminal ? "No message went either way." : "No message yet: they are listed here as they go."] }
            if record.state.isTerminal {
                return ["No messages: the Stream tab lists the messages of a streamed response (Content-Type text/event-stream,",
                        "application/x-ndjson or jsonl, or a JSON array sent without Content-Length)."]
            }
            return ["No message yet: a streamed response's messages are listed here as they arrive."]
        }
        let start = record.startedAt ?? record.createdAt
        return cache.withLock { cache in
            if cache.task != record.id {
                cache = Cache()
                cache.task = record.id
                cache.first = log.released + 1
            }
            // Messages let go from memory since the last frame leave the front.
            let released = log.released + 1 - cache.first
            if released > 0 {
                cache.perMessage.removeFirst(min(released, cache.perMessage.count))
                cache.first = log.released + 1
            }
            let rendered = cache.first + cache.perMessage.count // the next message to render
            for entry in log.entries where entry.message.index >= rendered {
                cache.perMessage.append(Self.lines(of: entry, since: start))
            }
            var header = "── \(log.count) message\(log.count == 1 ? "" : "s")" + (log.format.map { " (\($0.rawValue))" } ?? "")
                + ", \(ByteCount.format(log.totalBytes)) of data"
            if !record.state.isTerminal { header += ", arriving" }
            header += " ──"
            var flat = [header]
            if log.released > 0 {
                flat.append("(messages 1–\(log.released) are no longer held in memory, to keep it bounded: the session's journal "
                            + "and --events jsonl have them)")
            }
            flat.reserveCapacity(flat.count + cache.perMessage.reduce(0) { $0 + $1.count })
            for lines in cache.perMessage { flat += lines }
            return flat
        }
    }

    /// `+1.204 s  #12  update  id=7  42 B`, then the data indented: JSON pretty-printed, else as it came.
    static func lines(of entry: StreamMessageLog.Entry, since start: Double) -> [String] {
        let message = entry.message
        if message.format == .websocket { return webSocketLines(of: entry, since: start) }
        var head = String(format: "+%.3f s  #%d", max(0, entry.time - start), message.index)
        if let event = message.event { head += "  " + event }
        if let id = message.id { head += "  id=" + id }
        if let retry = message.retry { head += "  retry=\(retry) ms" }
        head += "  " + ByteCount.format(Int64(message.size))
        if !message.isWhole { head += " (first \(ByteCount.format(Int64(message.data.utf8.count))) kept)" }
        if !message.isComplete { head += " — the response ended inside it" }
        let data = Data(message.data.utf8)
        let body = message.isWhole && data.count <= prettyLimit && BodyView.looksLikeJSON(data)
            ? BodyView.prettyJSON(data) ?? Sanitizer.lines(message.data) : Sanitizer.lines(message.data)
        return [head] + body.map { "    " + $0 }
    }

    /// `+0.412 s  #3  ↑ send  text  5 B`, then the text (JSON pretty-printed) or a hex dump of the
    /// first 256 bytes; a close frame's code and reason.
    static func webSocketLines(of entry: StreamMessageLog.Entry, since start: Double) -> [String] {
        let message = entry.message
        let arrow = message.direction == .send ? "↑ send" : "↓ receive"
        let kind = WebSocketMessage(direction: message.direction ?? .receive, opcode: UInt8(clamping: message.opcode ?? 0), payload: Data(),
                                    size: 0).kind
        var head = String(format: "+%.3f s  #%d  ", max(0, entry.time - start), message.index) + arrow + "  " + kind
        if let code = message.closeCode { head += " \(code)" }
        head += "  " + ByteCount.format(Int64(message.size))
        if !message.isWhole { head += " (first \(ByteCount.format(Int64(message.data.utf8.count))) kept)" }
        let isText = message.opcode == 1 || message.opcode == 8
        var body: [String]
        if isText {
            let data = Data(message.data.utf8)
            body = message.isWhole && data.count <= prettyLimit && BodyView.looksLikeJSON(data)
                ? BodyView.prettyJSON(data) ?? Sanitizer.lines(message.data) : Sanitizer.lines(message.data)
            if message.data.isEmpty { body = [] }
        } else {
            let bytes = [UInt8](Data(base64Encoded: message.data) ?? Data())
            body = (0..<HexDump.lineCount(byteCount: min(bytes.count, 256))).map { HexDump.line($0, of: Array(bytes.prefix(256))) }
            if bytes.count > 256 { body.append("… \(bytes.count - 256) more bytes kept") }
        }
        return [head] + body.map { "    " + $0 }
    }
}
