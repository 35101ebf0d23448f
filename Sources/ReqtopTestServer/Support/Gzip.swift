import CZlib

/// gzip compression through zlib (`deflateInit2` with windowBits 31 writes the gzip wrapper).
package enum Gzip {
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let initialised = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        precondition(initialised == Z_OK, "deflateInit2 failed: \(initialised)")
        defer { deflateEnd(&stream) }

        var input = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
                return destination.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
}
