import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
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

/// The Stream and Messages tabs' lines, made once per message and kept in one list that grows at
/// its end: a frame after a new message renders only it and copies nothing else, so a stream of ten
/// thousand events costs each frame the new ones, not all of them. Messages the task let go of to
/// bound its memory are read back from the session's journal a page at a time when the view reaches
/// the top (`readBack`), at most `readBackLimit` of them. One per detail screen; holds the lines of
/// the task it last showed.
final class StreamTabLines: Sendable {
    private struct Cache {
        var task: TaskID?
        /// Lines per message held in memory, oldest first, from message `first`.
        var perMessage: [[String]] = []
        var first = 1
        /// Messages read back from the journal: `earlierFirst` ..< `first`, their lines in order.
        var earlier: [String] = []
        var earlierFirst = 1
        var earlierCount = 0
        /// The journal had nothing more to give (or there is none).
        var readBackEnded = false
        /// The lines shown: the header, a note when messages are missing, `earlier`, then `perMessage`'s.
        var flat: [String] = []
        var noteShown = false
    }

    private let cache = Protected(Cache())
    /// Data longer than this is shown as it came, not parsed for pretty-printing.
    static let prettyLimit = 64 << 10
    /// Messages read back per page, and at most in all (they are let go again when the task's own
    /// messages move on).
    static let readBackPage = 1000
    static let readBackLimit = 20_000

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
                cache.earlierFirst = cache.first
            }
            var rebuild = false
            // Messages let go from memory since the last frame leave the front (and what was read back before them).
            let released = log.released + 1 - cache.first
            if released > 0 {
                cache.perMessage.removeFirst(min(released, cache.perMessage.count))
                cache.first = log.released + 1
                cache.earlier = []
                cache.earlierFirst = cache.first
                cache.earlierCount = 0
                cache.readBackEnded = false
                rebuild = true
            }
            let rendered = cache.first + cache.perMessage.count // the next message to render
            var added: [String] = []
            for entry in log.entries.dropFirst(max(0, rendered - log.released - 1)) where entry.message.index >= rendered {
                let lines = Self.lines(of: entry, since: start)
                cache.perMessage.append(lines)
                added += lines
            }
            var header = "── \(log.count) message\(log.count == 1 ? "" : "s")" + (log.format.map { " (\($0.rawValue))" } ?? "")
                + ", \(ByteCount.format(log.totalBytes)) of data"
            if !record.state.isTerminal { header += ", arriving" }
            header += " ──"
            let missing = cache.earlierFirst - 1
            let note: String? = missing == 0 ? nil
                : cache.readBackEnded && cache.earlierCount == 0
                    ? "(messages 1–\(missing) are no longer held in memory, to keep it bounded: the session's journal "
                        + "and --events jsonl have them)"
                    : cache.earlierCount >= Self.readBackLimit
                        ? "(messages 1–\(missing) are not shown: \(Self.readBackLimit) were read back from the journal, the most it holds at once)"
                        : "(messages 1–\(missing) are no longer held in memory: scroll up to read them back from the session's journal)"
            if rebuild || cache.flat.isEmpty || (note != nil) != cache.noteShown {
                cache.flat = [header] + (note.map { [$0] } ?? []) + cache.earlier
                cache.flat.reserveCapacity(cache.flat.count + cache.perMessage.reduce(0) { $0 + $1.count })
                for lines in cache.perMessage { cache.flat += lines }
                cache.noteShown = note != nil
            } else {
                cache.flat[0] = header
                if let note { cache.flat[1] = note }
                cache.flat += added
            }
            return cache.flat
        }
    }

    /// Whether messages before those shown can be read back (the view is at the top).
    func canReadBack(_ record: TaskRecord) -> Bool {
        cache.withLock { $0.task == record.id && $0.earlierFirst > 1 && !$0.readBackEnded && $0.earlierCount < Self.readBackLimit }
    }

    /// Reads the page of messages before those shown back from the journal (`read`: first, last →
    /// entries, nil without a journal); how many lines were added at the top (after the header and note).
    func readBack(_ record: TaskRecord, read: (Int, Int) -> [StreamMessageLog.Entry]?) -> Int {
        guard canReadBack(record), let last = cache.withLock({ Optional($0.earlierFirst - 1) }) else { return 0 }
        let first = max(1, last - Self.readBackPage + 1)
        let entries = read(first, last) ?? []
        let start = record.startedAt ?? record.createdAt
        return cache.withLock { cache in
            // Only a run that ends right before what is shown can go on top of it.
            guard let firstRead = entries.first?.message.index, entries.last?.message.index == last,
                  zip(entries, firstRead...).allSatisfy({ $0.message.index == $1 }) else {
                cache.readBackEnded = true
                cache.flat = [] // the note changes
                return 0
            }
            let lines = entries.flatMap { Self.lines(of: $0, since: start) }
            cache.earlier = lines + cache.earlier
            cache.earlierFirst = firstRead
            cache.earlierCount += entries.count
            cache.flat = [] // rebuilt with them on the next frame
            return lines.count
        }
    }

    /// `+1.204 s  #12  update  id=7  42 B`, then the data indented: JSON pretty-printed, else as it came.
    static func lines(of entry: StreamMessageLog.Entry, since start: Double) -> [String] {
        let message = entry.message
        if message.format == .websocket { return webSocketLines(of: entry, since: start) }
        var head = String(printf: "+%.3f s  #%ld", max(0, entry.time - start), message.index)
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
        var head = String(printf: "+%.3f s  #%ld  ", max(0, entry.time - start), message.index) + arrow + "  " + kind
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
