import FoundationEssentials

/// Bytes waiting to be consumed from the front: appends at the end, `drop` moves a read offset,
/// the storage is compacted when the consumed part is most of it.
struct ByteQueue {
    private var storage: [UInt8] = []
    private var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    mutating func append(_ text: String) {
        storage.append(contentsOf: text.utf8)
    }

    mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        storage.append(contentsOf: bytes)
    }

    /// The waiting bytes, for reading in place.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { all in try body(UnsafeRawBufferPointer(rebasing: all[start...])) }
    }

    mutating func drop(_ n: Int) {
        start += min(n, count)
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            start = 0
        } else if start > 1 << 16, start * 2 > storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// Removes and returns up to `n` bytes from the front.
    mutating func take(_ n: Int) -> [UInt8] {
        let n = min(n, count)
        let bytes = Array(storage[start..<start + n])
        drop(n)
        return bytes
    }

    mutating func removeAll() {
        storage.removeAll()
        start = 0
    }
}
