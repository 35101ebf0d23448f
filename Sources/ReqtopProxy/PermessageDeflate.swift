import CZlib
import ReqtopHTTPModel

/// permessage-deflate (RFC 7692) for one direction of a WebSocket the proxy records: each
/// compressed message's payload inflated as raw DEFLATE, with the 4-byte tail the sender left off
/// put back at its end, and the window kept from message to message unless the endpoints agreed
/// on `*_no_context_takeover`. Used on the proxy thread only.
final class PermessageDeflate: WebSocketInflating, @unchecked Sendable {
    private var stream = z_stream()
    private let resetsEachMessage: Bool
    /// The end of a DEFLATE block the sender leaves off (RFC 7692 §7.2.2), in memory that lives as long as the process.
    nonisolated(unsafe) private static let tail: UnsafeRawBufferPointer = {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
        bytes.copyBytes(from: [0x00, 0x00, 0xFF, 0xFF])
        return UnsafeRawBufferPointer(bytes)
    }()

    /// The inflaters for the client's and the host's messages when the host's `Sec-WebSocket-Extensions`
    /// agreed on permessage-deflate (nil for a direction otherwise).
    static func agreed(in response: HTTPResponseHead) -> (client: PermessageDeflate, host: PermessageDeflate)? {
        for value in response.headers.values(for: "Sec-WebSocket-Extensions") {
            for offer in value.split(separator: ",") {
                let parameters = offer.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
                guard parameters.first == "permessage-deflate" else { continue }
                guard let client = PermessageDeflate(resetsEachMessage: parameters.contains("client_no_context_takeover")),
                      let host = PermessageDeflate(resetsEachMessage: parameters.contains("server_no_context_takeover")) else { return nil }
                return (client, host)
            }
        }
        return nil
    }

    init?(resetsEachMessage: Bool) {
        self.resetsEachMessage = resetsEachMessage
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    }

    deinit { inflateEnd(&stream) }

    func inflate(_ bytes: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Void) throws(WebSocketProtocolError) {
        try run(bytes, output)
    }

    func endMessage(_ output: (UnsafeRawBufferPointer) -> Void) throws(WebSocketProtocolError) {
        try run(Self.tail, output)
        if resetsEachMessage { inflateReset(&stream) }
    }

    private func run(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Void) throws(WebSocketProtocolError) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        var out = [UInt8](repeating: 0, count: 64 << 10)
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            let (result, produced) = out.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(buffer.count)
                let result = CZlib.inflate(&stream, Z_SYNC_FLUSH)
                return (result, buffer.count - Int(stream.avail_out))
            }
            guard result == Z_OK || result == Z_BUF_ERROR || result == Z_STREAM_END else {
                throw WebSocketProtocolError(description: "a compressed message does not inflate (zlib error \(result))")
            }
            if produced > 0 { out.withUnsafeBytes { output(UnsafeRawBufferPointer(rebasing: $0[..<produced])) } }
            // Done when the input is used up and the output did not fill (nothing more is waiting).
            if stream.avail_in == 0, produced < out.count { break }
            if produced == 0, result == Z_BUF_ERROR { break }
        }
        stream.next_in = nil
    }
}
