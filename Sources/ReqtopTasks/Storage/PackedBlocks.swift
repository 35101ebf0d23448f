import CZlib
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Packed records, many to a block: the open block as written, sealed blocks deflated (records of
/// one session repeat their header names, hosts and values, so a block shrinks several times).
/// A record is read back from its block, inflated on demand; the last blocks inflated are kept.
/// Not thread-safe: the store holds it under its lock.
struct PackedBlocks {
    /// Where a packed record is: its block, its offset in the block and its length.
    struct Location: Hashable {
        var block: Int32
        var offset: UInt32
        var length: UInt32
    }

    /// A block is sealed (deflated) once it holds this many bytes.
    static let blockSize = 32 << 10

    private var sealed: [Sealed?] = []
    private var open: [UInt8] = []
    /// Records still held per block; a block with none is freed.
    private var holders: [Int32] = [0]
    private var inflated: [(block: Int32, bytes: [UInt8])] = []

    /// A block's bytes, deflated (or as written, if deflating failed), and its length as written.
    private struct Sealed {
        let bytes: [UInt8]
        let count: Int
        let isDeflated: Bool
    }

    /// Bytes the blocks take in memory (sealed, as deflated, and the open one).
    private(set) var memoryBytes = 0

    /// Packs `record`; nil when it cannot be packed (`RecordCodec.canPack`), and then nothing is kept.
    mutating func add(_ record: TaskRecord) -> Location? {
        let start = open.count
        guard RecordCodec.canPack(record), RecordCodec.append(record, to: &open) else { return nil }
        let location = Location(block: Int32(sealed.count), offset: UInt32(start), length: UInt32(open.count - start))
        holders[Int(location.block)] += 1
        memoryBytes += open.count - start
        if open.count >= Self.blockSize { seal() }
        return location
    }

    /// The record at `location`.
    mutating func record(at location: Location) throws(BinaryReader.Malformed) -> TaskRecord {
        let block = Int(location.block)
        if block == sealed.count {
            return try Self.decode(open, location)
        }
        if let cached = inflated.first(where: { $0.block == location.block }) { return try Self.decode(cached.bytes, location) }
        guard block < sealed.count, let packed = sealed[block] else { throw BinaryReader.Malformed() }
        guard packed.isDeflated else { return try Self.decode(packed.bytes, location) }
        var bytes = [UInt8](repeating: 0, count: packed.count)
        var length = uLongf(packed.count)
        let status = bytes.withUnsafeMutableBufferPointer { out in
            packed.bytes.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(length) == packed.count else { throw BinaryReader.Malformed() }
        if inflated.count >= 4 { inflated.removeFirst() }
        inflated.append((location.block, bytes))
        return try Self.decode(bytes, location)
    }

    /// Lets go of the record at `location`; its block is freed with the last of its records.
    mutating func remove(_ location: Location) {
        let block = Int(location.block)
        holders[block] -= 1
        guard holders[block] == 0 else { return }
        if block == sealed.count {
            memoryBytes -= open.count
            open.removeAll(keepingCapacity: true)
        } else if let packed = sealed[block] {
            memoryBytes -= packed.bytes.count
            sealed[block] = nil
            inflated.removeAll { $0.block == location.block }
        }
    }

    private static func decode(_ bytes: [UInt8], _ location: Location) throws(BinaryReader.Malformed) -> TaskRecord {
        let start = Int(location.offset), end = start + Int(location.length)
        guard end <= bytes.count else { throw BinaryReader.Malformed() }
        let result = bytes.withUnsafeBytes { all in
            Result { () throws(BinaryReader.Malformed) in try RecordCodec.decode(UnsafeRawBufferPointer(rebasing: all[start..<end])) }
        }
        return try result.get()
    }

    private mutating func seal() {
        var length = compressBound(uLong(open.count))
        var deflated = [UInt8](repeating: 0, count: Int(length))
        let status = deflated.withUnsafeMutableBufferPointer { out in
            open.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), 1) }
        }
        let block = status == Z_OK ? Sealed(bytes: Array(deflated[..<Int(length)]), count: open.count, isDeflated: true)
            : Sealed(bytes: open, count: open.count, isDeflated: false) // (deflate fails only out of memory)
        memoryBytes += block.bytes.count - open.count
        sealed.append(block)
        open = []
        open.reserveCapacity(Self.blockSize + 4096)
        holders.append(0)
    }
}
