import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One WebSocket message as it went over the connection (RFC 6455): a text or binary message
/// (its fragments joined), or a control frame (close, ping, pong).
public struct WebSocketMessage: Sendable, Hashable {
    /// Which way it went: `send` from the client to the server, `receive` back (Chrome's words).
    public enum Direction: String, Sendable, Hashable { case send, receive }

    public var direction: Direction
    /// 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    public var opcode: UInt8
    /// The payload, unmasked: its first `WebSocketFrameParser.keptBytes` bytes.
    public var payload: Data
    /// Payload bytes in all.
    public var size: Int
    /// A close frame's status code, when it had one.
    public var closeCode: Int?

    public init(direction: Direction, opcode: UInt8, payload: Data, size: Int, closeCode: Int? = nil) {
        self.direction = direction
        self.opcode = opcode
        self.payload = payload
        self.size = size
        self.closeCode = closeCode
    }

    public var isWhole: Bool { payload.count == size }

    /// `text`, `binary`, `close`, `ping`, `pong` (or the number of a reserved opcode).
    public var kind: String {
        switch opcode {
        case 1: "text"
        case 2: "binary"
        case 8: "close"
        case 9: "ping"
        case 10: "pong"
        default: "opcode \(opcode)"
        }
    }
}

/// Why a frame sequence is not valid WebSocket: the relay goes on (it passes bytes untouched), but
/// nothing more is recorded for that direction.
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Decompresses the messages of one direction of a WebSocket that agreed on permessage-deflate
/// (RFC 7692): the payload of each compressed message in pieces, then its end.
public protocol WebSocketInflating: AnyObject, Sendable {
    func inflate(_ bytes: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Void) throws(WebSocketProtocolError)
    /// The message's last payload byte has been given: what is left comes out.
    func endMessage(_ output: (UnsafeRawBufferPointer) -> Void) throws(WebSocketProtocolError)
}

/// Reads the frames of one direction of a WebSocket connection as its bytes arrive, in pieces of
/// any size, and reports each whole message. Memory is bounded: a message keeps at most
/// `keptBytes` of its payload (the rest is counted), whatever its frames announce.
public struct WebSocketFrameParser: Sendable {
    public let direction: WebSocketMessage.Direction
    public let keptBytes: Int
    /// Set when the connection agreed on permessage-deflate: a message whose first frame has RSV1
    /// set is compressed, and is reported decompressed (its `size` the decompressed size).
    public var inflater: (any WebSocketInflating)?
    /// Messages reported so far.
    public private(set) var count = 0

    // The frame being read: its header bytes, then its payload.
    private var header: [UInt8] = []
    private var payloadLeft: UInt64 = 0
    private var inPayload = false
    private var frameOpcode: UInt8 = 0
    private var frameFinal = false
    private var mask: [UInt8] = []
    private var maskOffset = 0
    // The data message being assembled from its fragments, and the control frame being read.
    private var messageOpcode: UInt8?
    private var messageCompressed = false
    private var message = Data()
    private var messageSize = 0
    private var control = Data()
    private var failed: WebSocketProtocolError?

    public init(direction: WebSocketMessage.Direction, keptBytes: Int = 256 << 10) {
        self.direction = direction
        self.keptBytes = max(0, keptBytes)
    }

    /// Reads `bytes`, calling `emit` for each message they complete. Throws once, at the first
    /// violation of RFC 6455; later calls do nothing.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (WebSocketMessage) -> Void) throws(WebSocketProtocolError) {
        if failed != nil { return }
        var index = 0
        while index < bytes.count {
            if !inPayload {
                header.append(bytes[index])
                index += 1
                if let problem = takeHeaderIfComplete() {
                    failed = problem
                    throw problem
                }
                if inPayload, payloadLeft == 0 {
                    do throws(WebSocketProtocolError) { try finishFrame(emit) } catch {
                        failed = error
                        throw error
                    }
                }
                continue
            }
            let take = Int(min(UInt64(bytes.count - index), payloadLeft))
            do throws(WebSocketProtocolError) {
                try appendPayload(UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]))
                index += take
                payloadLeft -= UInt64(take)
                if payloadLeft == 0 { try finishFrame(emit) }
            } catch {
                failed = error
                throw error
            }
        }
    }

    /// Parses the frame header once it is all there; sets up the payload. Returns the violation, if any.
    private mutating func takeHeaderIfComplete() -> WebSocketProtocolError? {
        guard header.count >= 2 else { return nil }
        let masked = header[1] & 0x80 != 0
        let shortLength = header[1] & 0x7F
        let lengthBytes = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        let needed = 2 + lengthBytes + (masked ? 4 : 0)
        guard header.count >= needed else { return nil }
        let first = header[0]
        let opcode = first & 0x0F
        // RSV1 marks a compressed message when permessage-deflate was agreed: on its first frame only.
        let compressed = first & 0x40 != 0
        if first & 0x30 != 0 || (compressed && (inflater == nil || opcode == 0 || opcode >= 8)) {
            return WebSocketProtocolError(description: "a frame sets reserved bits (RSV) no extension was agreed for")
        }
        let final = first & 0x80 != 0
        guard [0, 1, 2, 8, 9, 10].contains(opcode) else { return WebSocketProtocolError(description: "a frame has the reserved opcode \(opcode)") }
        if direction == .send, !masked { return WebSocketProtocolError(description: "a frame from the client is not masked (RFC 6455 §5.1)") }
        if direction == .receive, masked { return WebSocketProtocolError(description: "a frame from the server is masked (RFC 6455 §5.1)") }
        var length = UInt64(shortLength)
        if lengthBytes > 0 {
            length = header[2..<2 + lengthBytes].reduce(0) { $0 << 8 | UInt64($1) }
            if lengthBytes == 8, length >> 63 != 0 { return WebSocketProtocolError(description: "a frame's 64-bit length has its top bit set") }
        }
        if opcode >= 8 {
            if !final { return WebSocketProtocolError(description: "a control frame is fragmented") }
            if length > 125 { return WebSocketProtocolError(description: "a control frame's payload is over 125 bytes (\(length))") }
        } else if opcode == 0, messageOpcode == nil {
            return WebSocketProtocolError(description: "a continuation frame with no message to continue")
        } else if opcode != 0, messageOpcode != nil {
            return WebSocketProtocolError(description: "a new message began before the fragmented one ended")
        }
        mask = masked ? Array(header[(2 + lengthBytes)..<needed]) : []
        maskOffset = 0
        frameOpcode = opcode
        frameFinal = final
        payloadLeft = length
        inPayload = true
        header.removeAll(keepingCapacity: true)
        if opcode == 1 || opcode == 2 {
            messageOpcode = opcode
            messageCompressed = compressed
            message.removeAll(keepingCapacity: message.count <= 4096)
            messageSize = 0
        }
        if opcode >= 8 { control.removeAll(keepingCapacity: true) }
        return nil
    }

    private mutating func appendPayload(_ bytes: UnsafeRawBufferPointer) throws(WebSocketProtocolError) {
        let isControl = frameOpcode >= 8
        // A compressed message is decompressed whole (the next one may refer back to it); otherwise
        // only what is kept is unmasked.
        let needed = isControl || messageCompressed ? bytes.count : min(bytes.count, max(0, keptBytes - message.count))
        var plain = Array(bytes.prefix(needed))
        if !mask.isEmpty {
            for i in plain.indices { plain[i] ^= mask[(maskOffset + i) & 3] }
        }
        maskOffset = (maskOffset + bytes.count) & 3
        if isControl {
            control.append(contentsOf: plain)
        } else if messageCompressed, let inflater {
            var failure: WebSocketProtocolError?
            plain.withUnsafeBytes { input in
                do throws(WebSocketProtocolError) { try inflater.inflate(input) { keep($0) } } catch { failure = error }
            }
            if let failure { throw failure }
        } else {
            message.append(contentsOf: plain)
            messageSize += bytes.count
        }
    }

    /// Decompressed bytes of a message: the first `keptBytes` kept, all counted.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        let room = keptBytes - message.count
        if room > 0 { message.append(contentsOf: bytes.prefix(room)) }
        messageSize += bytes.count
    }

    private mutating func finishFrame(_ emit: (WebSocketMessage) -> Void) throws(WebSocketProtocolError) {
        inPayload = false
        if frameOpcode >= 8 {
            var closeCode: Int?
            if frameOpcode == 8, control.count >= 2 { closeCode = Int(control[control.startIndex]) << 8 | Int(control[control.startIndex + 1]) }
            count += 1
            emit(WebSocketMessage(direction: direction, opcode: frameOpcode, payload: control, size: control.count, closeCode: closeCode))
            return
        }
        guard frameFinal, let opcode = messageOpcode else { return }
        if messageCompressed, let inflater { try inflater.endMessage { keep($0) } }
        count += 1
        emit(WebSocketMessage(direction: direction, opcode: opcode, payload: message, size: messageSize))
        messageOpcode = nil
        message = Data()
        messageSize = 0
    }
}
