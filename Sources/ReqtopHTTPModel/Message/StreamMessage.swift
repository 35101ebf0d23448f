/// One message of a streamed response as it arrived: a server-sent event, a line of NDJSON, or an
/// element of a JSON array sent in pieces.
public struct StreamMessage: Sendable, Hashable {
    /// How the body is divided into messages, chosen from its `Content-Type`.
    public enum Format: String, Sendable, CaseIterable {
        /// `text/event-stream` (the WHATWG HTML server-sent events syntax).
        case sse
        /// `application/x-ndjson`, `application/jsonl` and their kin: one JSON value per line.
        case ndjson
        /// `application/json` without a `Content-Length`, whose body is an array: one message per element.
        case jsonArray = "json-array"
        /// A WebSocket message or control frame, either way (`direction`, `opcode`).
        case websocket
    }

    public var format: Format
    /// 1 for the first message of the response.
    public var index: Int
    /// SSE: the `event:` field as sent (nil when absent: a `message` event).
    public var event: String?
    /// SSE: the `id:` field of this event, as sent (nil when it had none).
    public var id: String?
    /// SSE: the `retry:` field of this event (milliseconds), when it had a valid one.
    public var retry: Int?
    /// The data (SSE `data:` lines joined with a line feed; the line or element otherwise), the
    /// first `StreamMessageParser.keptBytes` bytes of it, as UTF-8 (invalid bytes replaced).
    public var data: String
    /// Bytes of data in all, kept or not.
    public var size: Int
    /// False when `data` holds only the first of `size` bytes.
    public var isWhole: Bool
    /// WebSocket: which way it went.
    public var direction: WebSocketMessage.Direction?
    /// WebSocket: 1 text, 2 binary, 8 close, 9 ping, 10 pong. `data` is the text for 1 and 8 (a close
    /// frame's reason), base64 for the others, as Chrome's `_webSocketMessages` writes them.
    public var opcode: Int?
    /// WebSocket: a close frame's status code.
    public var closeCode: Int?
    /// False when the body ended inside the message (an SSE event without its blank line, an
    /// array element without its `,` or `]`): the message is shown, and said to be cut.
    public var isComplete: Bool

    public init(format: Format, index: Int, event: String? = nil, id: String? = nil, retry: Int? = nil, data: String,
                size: Int, isWhole: Bool = true, isComplete: Bool = true) {
        self.format = format
        self.index = index
        self.event = event
        self.id = id
        self.retry = retry
        self.data = data
        self.size = size
        self.isWhole = isWhole
        self.isComplete = isComplete
    }

    /// A WebSocket message as a stream message: text as text, a close frame's reason as text, other
    /// payloads (binary, ping, pong) in base64.
    public init(_ message: WebSocketMessage, index: Int) {
        var payload = message.payload
        if message.opcode == 8, payload.count >= 2 { payload = payload.dropFirst(2) }
        let isText = message.opcode == 1 || message.opcode == 8
        self.init(format: .websocket, index: index, data: isText ? String(decoding: payload, as: UTF8.self) : payload.base64EncodedString(),
                  size: message.size, isWhole: message.isWhole)
        direction = message.direction
        opcode = Int(message.opcode)
        closeCode = message.closeCode
    }

    /// The format of a response with this `Content-Type`, or nil for a body that is not a stream of
    /// messages. A JSON body counts only without `Content-Length` (sent in pieces, as it was made).
    public static func format(contentType: String?, hasContentLength: Bool) -> Format? {
        guard var contentType else { return nil }
        // On the bytes, in place: this runs once per response on the engine thread.
        return contentType.withUTF8 { bytes -> Format? in
            func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            var start = 0, end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            let mime = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
            func isType(_ name: StaticString) -> Bool {
                name.utf8CodeUnitCount == mime.count && mime.indices.allSatisfy { lower(mime[$0]) == name.utf8Start[$0] }
            }
            if isType("text/event-stream") { return .sse }
            if isType("application/x-ndjson") || isType("application/ndjson") || isType("application/jsonl") || isType("application/x-jsonl")
                || isType("application/jsonlines") || isType("application/x-jsonlines") || isType("application/json-lines") {
                return .ndjson
            }
            guard !hasContentLength else { return nil }
            let suffix: StaticString = "+json"
            let hasJSONSuffix = mime.count >= suffix.utf8CodeUnitCount
                && (0..<suffix.utf8CodeUnitCount).allSatisfy { lower(mime[mime.count - suffix.utf8CodeUnitCount + $0]) == suffix.utf8Start[$0] }
            return isType("application/json") || hasJSONSuffix ? .jsonArray : nil
        }
    }
}
