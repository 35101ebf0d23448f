/// The byte stream behind `/bytes/{n}` and `/stream-bytes/{n}`: SplitMix64 words, little-endian,
/// from a seed. The same seed always gives the same stream, so a client can check a download
/// without the server keeping it in memory; a shorter download is a prefix of a longer one.
package struct DeterministicBytes: Sendable {
    /// The seed used when a request gives none.
    package static let defaultSeed: UInt64 = 0x7265_7174_6f70  // "reqtop"

    private var state: UInt64
    private var word: UInt64 = 0
    private var wordBytesLeft = 0

    package init(seed: UInt64 = DeterministicBytes.defaultSeed) {
        state = seed
    }

    /// The first `count` bytes of the stream for `seed` (for tests and small bodies).
    package static func prefix(_ count: Int, seed: UInt64 = defaultSeed) -> [UInt8] {
        var stream = DeterministicBytes(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { stream.fill($0) }
        return bytes
    }

    /// Writes the next `buffer.count` bytes of the stream into `buffer`.
    package mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var index = 0
        let count = buffer.count
        while index < count && wordBytesLeft > 0 {
            buffer[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            wordBytesLeft -= 1
            index += 1
        }
        while count - index >= 8 {
            buffer.storeBytes(of: next().littleEndian, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        if index < count {
            word = next()
            wordBytesLeft = 8
            while index < count {
                buffer[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                wordBytesLeft -= 1
                index += 1
            }
        }
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
