import FoundationEssentials
import ReqtopHTTPModel

/// A growable byte buffer written through a pointer, for the JSON writer: one capacity check per
/// write. (An `Array`'s `append` checks uniqueness and capacity for every byte: a line of a
/// hundred fields spent most of its instructions there.) A class only for its lifetime: its state
/// is behind a pointer, so writing takes no exclusivity check.
final class ByteSink {
    private struct Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count: Int
        var capacity: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    init(capacity: Int = 512) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(base: .allocate(capacity: max(16, capacity)), count: 0, capacity: max(16, capacity)))
    }

    deinit {
        storage.pointee.base.deallocate()
        storage.deallocate()
    }

    var count: Int { storage.pointee.count }
    var capacity: Int { storage.pointee.capacity }

    /// Forgets what was written, keeping the memory.
    func removeAll() { storage.pointee.count = 0 }

    /// The bytes written so far (valid only inside `body`).
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.pointee.base, count: storage.pointee.count))
    }

    /// Room for `count` more bytes, and where they go; `commit` says how many were written.
    @inline(__always) func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if storage.pointee.capacity - storage.pointee.count < count { grow(count) }
        return storage.pointee.base + storage.pointee.count
    }

    @inline(__always) func commit(_ count: Int) { storage.pointee.count += count }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        storage.pointee.count += 1
    }

    @inline(__always) func append(_ first: UInt8, _ second: UInt8) {
        let out = reserve(2)
        out[0] = first
        out[1] = second
        storage.pointee.count += 2
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).initialize(from: source, count: bytes.count)
        storage.pointee.count += bytes.count
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Drops the last `count` bytes.
    func removeLast(_ count: Int) { storage.pointee.count -= min(count, storage.pointee.count) }

    /// The byte at `index` (from the start).
    func byte(at index: Int) -> UInt8 { storage.pointee.base[index] }

    /// The decimal digits of `value`.
    func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, magnitude >= scale { digits += 1; scale = scale &* 10 }
        let out = reserve(digits)
        var index = digits - 1
        repeat {
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while index >= 0
        commit(digits)
    }

    /// `string` as a JSON string literal (as `JSONEscaping.appendQuoted` writes it).
    func appendQuoted(_ string: String) {
        var string = string
        let clean = string.withUTF8 { source -> Bool in
            guard JSONEscaping.cleanPrefixLength(source) == source.count else { return false }
            let out = reserve(source.count + 2)
            out[0] = UInt8(ascii: "\"")
            if let base = source.baseAddress { (out + 1).initialize(from: base, count: source.count) }
            out[source.count + 1] = UInt8(ascii: "\"")
            commit(source.count + 2)
            return true
        }
        guard !clean else { return }
        var escaped: [UInt8] = [] // a string with characters to escape: rare
        JSONEscaping.appendQuoted(string, to: &escaped)
        append(escaped)
    }

    @inline(never) private func grow(_ needed: Int) {
        let old = storage.pointee
        let capacity = max(old.capacity * 2, old.count + needed)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.initialize(from: old.base, count: old.count)
        old.base.deallocate()
        storage.pointee = Storage(base: base, count: old.count, capacity: capacity)
    }
}
