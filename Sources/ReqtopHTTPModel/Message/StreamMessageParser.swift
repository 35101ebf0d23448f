#if canImport(Glibc)
import Glibc
#endif

/// Splits a streamed response body into `StreamMessage`s as its bytes arrive, in pieces of any size.
/// Memory is bounded whatever the input: each message keeps at most `keptBytes` of its data (the
/// rest is counted), SSE field names and values other than data at most `maxFieldBytes`.
public struct StreamMessageParser: Sendable {
    public let format: StreamMessage.Format
    /// Data bytes kept per message.
    public let keptBytes: Int
    /// Messages produced so far.
    public private(set) var count = 0

    static let maxFieldBytes = 4096
    private static let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    // The message being read.
    private var data: [UInt8] = []
    private var dataSize = 0
    // SSE: the line being read, and the event's fields so far.
    private var field: [UInt8] = []
    private var value: [UInt8] = []
    private var lineHasBytes = false
    private var inValue = false
    private var skipsSpace = false
    private var inComment = false
    private var hasData = false
    private var event: String?
    private var id: String?
    private var retry: Int?
    private var afterCarriageReturn = false
    /// Bytes of a leading UTF-8 byte order mark read so far (3: past it, or there was none).
    private var byteOrderMarkMatched = 0
    // JSON array.
    private enum ArrayPhase { case before, between, element, done, notAnArray }
    private var phase = ArrayPhase.before
    private var depth = 0
    private var inString = false
    private var escaped = false

    public init(format: StreamMessage.Format, keptBytes: Int = 256 << 10) {
        self.format = format
        self.keptBytes = max(0, keptBytes)
    }

    /// Reads `bytes`, calling `emit` for each message they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (StreamMessage) -> Void) {
        // Byte by byte where the syntax is; a run of data (an SSE data value, an NDJSON line, the
        // inside of a JSON string) is taken whole up to the next byte that can end it.
        var index = 0
        while index < bytes.count {
            switch format {
            case .websocket:
                return // frames, not a body: `WebSocketFrameParser` reads them
            case .sse:
                if inValue, !skipsSpace, !afterCarriageReturn, byteOrderMarkMatched == 3, isDataField {
                    let end = Self.next(Self.lineFeed, or: Self.carriageReturn, in: bytes, from: index)
                    if end > index {
                        keep(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                        lineHasBytes = true
                        index = end
                        continue
                    }
                }
                sse(bytes[index], emit)
            case .ndjson:
                let end = Self.next(Self.lineFeed, or: Self.lineFeed, in: bytes, from: index)
                keep(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                index = end
                if index < bytes.count { endNDJSONLine(emit) }
            case .jsonArray:
                if phase == .element, inString, !escaped {
                    let end = Self.next(UInt8(ascii: "\""), or: UInt8(ascii: "\\"), in: bytes, from: index)
                    if end > index {
                        keep(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                        index = end
                        continue
                    }
                }
                jsonArray(bytes[index], emit)
            }
            index += 1
        }
    }

    /// Where the first `a` or `b` at or after `start` is (`bytes.count` when there is none).
    private static func next(_ a: UInt8, or b: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let count = bytes.count - start
        let first = memchr(base + start, Int32(a), count).map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? bytes.count
        guard a != b else { return first }
        let second = memchr(base + start, Int32(b), min(count, first - start)).map { $0 - UnsafeMutableRawPointer(mutating: base) }
        return second ?? first
    }

    /// The body ended: a message it ended inside is emitted, marked incomplete (an NDJSON last line
    /// without its line feed is complete).
    public mutating func finish(_ emit: (StreamMessage) -> Void) {
        switch format {
        case .websocket:
            break
        case .sse:
            if lineHasBytes { endLine() }
            if hasData { dispatch(emit, complete: false) }
        case .ndjson:
            if dataSize > 0 { endNDJSONLine(emit) }
        case .jsonArray:
            if phase == .element { dispatch(emit, complete: false) }
            phase = .done
        }
    }

    private mutating func keep(_ byte: UInt8) {
        if data.count < keptBytes { data.append(byte) }
        dataSize += 1
    }

    private mutating func keep(_ run: UnsafeRawBufferPointer) {
        let room = keptBytes - data.count
        if room > 0 { data.append(contentsOf: run.prefix(room)) }
        dataSize += run.count
    }

    private mutating func dispatch(_ emit: (StreamMessage) -> Void, complete: Bool = true) {
        count += 1
        emit(StreamMessage(format: format, index: count, event: event, id: id, retry: retry, data: String(decoding: data, as: UTF8.self),
                           size: dataSize, isWhole: data.count == dataSize, isComplete: complete))
        data.removeAll(keepingCapacity: data.count <= 4096)
        dataSize = 0
        hasData = false
        event = nil
        id = nil
        retry = nil
    }

    // MARK: Server-sent events

    private mutating func sse(_ byte: UInt8, _ emit: (StreamMessage) -> Void) {
        if byteOrderMarkMatched < 3 {
            if byte == Self.byteOrderMark[byteOrderMarkMatched] {
                byteOrderMarkMatched += 1
                return
            }
            // Not a byte order mark: what matched of it is data.
            let matched = byteOrderMarkMatched
            byteOrderMarkMatched = 3
            for skipped in Self.byteOrderMark[..<matched] { sse(skipped, emit) }
        }
        if afterCarriageReturn {
            afterCarriageReturn = false
            if byte == Self.lineFeed { return }
        }
        if byte == Self.lineFeed || byte == Self.carriageReturn {
            afterCarriageReturn = byte == Self.carriageReturn
            if lineHasBytes { endLine() } else { dispatchIfAny(emit) }
            return
        }
        defer { lineHasBytes = true }
        if inComment { return }
        if !inValue {
            if byte == UInt8(ascii: ":") {
                if !lineHasBytes { inComment = true; return }
                inValue = true
                skipsSpace = true
                if isDataField { startData() }
                return
            }
            if field.count <= Self.maxFieldBytes { field.append(byte) }
            return
        }
        if skipsSpace {
            skipsSpace = false
            if byte == UInt8(ascii: " ") { return }
        }
        if isDataField {
            keep(byte)
        } else if value.count < Self.maxFieldBytes {
            value.append(byte)
        }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private var isDataField: Bool { field.count == 4 && field.elementsEqual("data".utf8) }

    /// A `data` line begins: lines are joined with a line feed.
    private mutating func startData() {
        if hasData { keep(Self.lineFeed) }
        hasData = true
    }

    private mutating func endLine() {
        defer {
            field.removeAll(keepingCapacity: true)
            value.removeAll(keepingCapacity: true)
            lineHasBytes = false
            inValue = false
            skipsSpace = false
            inComment = false
        }
        if inComment { return }
        let text = String(decoding: value, as: UTF8.self)
        switch String(decoding: field, as: UTF8.self) {
        case "data": if !inValue { startData() } // `data` alone on its line: an empty data line
        case "event": event = text
        case "id": if !value.contains(0) { id = text } // an id with NUL is ignored (WHATWG)
        case "retry": if !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { retry = Int(text) }
        default: break // unknown fields are ignored
        }
    }

    /// A blank line: the event is dispatched when it had data; otherwise its fields are dropped
    /// (as the WHATWG algorithm does).
    private mutating func dispatchIfAny(_ emit: (StreamMessage) -> Void) {
        if hasData {
            dispatch(emit)
        } else {
            event = nil
            id = nil
            retry = nil
        }
    }

    // MARK: NDJSON

    private mutating func endNDJSONLine(_ emit: (StreamMessage) -> Void) {
        if data.last == Self.carriageReturn, data.count == dataSize {
            data.removeLast()
            dataSize -= 1
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == Self.carriageReturn }), data.count == dataSize {
            data.removeAll(keepingCapacity: true) // blank lines separate nothing
            dataSize = 0
            return
        }
        dispatch(emit)
    }

    // MARK: JSON array

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private mutating func jsonArray(_ byte: UInt8, _ emit: (StreamMessage) -> Void) {
        switch phase {
        case .done, .notAnArray:
            return
        case .before:
            if byteOrderMarkMatched < 3, byte == Self.byteOrderMark[byteOrderMarkMatched] {
                byteOrderMarkMatched += 1
                return
            }
            byteOrderMarkMatched = 3
            if Self.isSpace(byte) { return }
            phase = byte == UInt8(ascii: "[") ? .between : .notAnArray
        case .between:
            if Self.isSpace(byte) || byte == UInt8(ascii: ",") { return }
            if byte == UInt8(ascii: "]") { phase = .done; return }
            phase = .element
            depth = 0
            inString = false
            escaped = false
            element(byte, emit)
        case .element:
            element(byte, emit)
        }
    }

    private mutating func element(_ byte: UInt8, _ emit: (StreamMessage) -> Void) {
        if inString {
            keep(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}") where depth > 0, UInt8(ascii: "]") where depth > 0:
            depth -= 1
        case UInt8(ascii: ",") where depth == 0, UInt8(ascii: "]"):
            // At depth 0 (a deeper `]` closed a nested array above): the element ends here.
            dispatch(emit)
            phase = byte == UInt8(ascii: "]") ? .done : .between
            return
        default:
            if depth == 0 && Self.isSpace(byte) { return } // between a scalar and its delimiter
        }
        keep(byte)
    }
}
