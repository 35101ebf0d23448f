#if canImport(Glibc)
import Glibc
#endif

/// Literal search and replace on bytes, as Foundation's `replacingOccurrences(of:with:)` and
/// `Data.range(of:)` compare: code unit by code unit (the standard library's `replacing` compares
/// `Character`s, so `"\n"` would not match inside `"\r\n"`).
extension StringProtocol {
    /// The text with every occurrence of `target` (left to right, not overlapping) replaced.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, ByteSearch.firstOffset(of: target.utf8, in: utf8) != nil else { return String(self) }
        let hay = Array(utf8), needle = Array(target.utf8)
        var out: [UInt8] = []
        var start = 0, copied = 0
        while let found = ByteSearch.firstOffset(of: needle, in: hay, from: start) {
            if out.isEmpty { out.reserveCapacity(hay.count) }
            out.append(contentsOf: hay[copied..<found])
            out.append(contentsOf: replacement.utf8)
            start = found + needle.count
            copied = start
        }
        guard copied > 0 else { return String(self) }
        out.append(contentsOf: hay[copied...])
        return String(decoding: out, as: UTF8.self)
    }
}

/// Byte-sequence search (libc's `memchr` finds each candidate, `memcmp` checks it).
public enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `hay` at or after `start` (inlinable: the
    /// caller's types are known, so both are read in place when they are contiguous).
    @inlinable
    public static func firstOffset(of needle: some Collection<UInt8>, in hay: some Collection<UInt8>, from start: Int = 0) -> Int? {
        func search(_ hay: UnsafeBufferPointer<UInt8>) -> Int? {
            needle.withContiguousStorageIfAvailable { firstOffset(of: $0, in: hay, from: start) }
                ?? Array(needle).withUnsafeBufferPointer { firstOffset(of: $0, in: hay, from: start) }
        }
        return hay.withContiguousStorageIfAvailable(search) ?? Array(hay).withUnsafeBufferPointer(search)
    }

    /// The offset of the first occurrence of `needle` in `hay` at or after `start`.
    public static func firstOffset(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard let first = needle.first, start >= 0, hay.count - start >= needle.count, let base = hay.baseAddress else { return nil }
        let last = hay.count - needle.count
        var offset = start
        while offset <= last, let found = memchr(base + offset, Int32(first), last - offset + 1) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
            offset = at + 1
        }
        return nil
    }
}

extension StringProtocol {
    /// Where `needle` first occurs (in `range` when given), compared byte by byte as Foundation's
    /// literal `range(of:)`.
    public func byteRange(of needle: String, in range: Range<Index>? = nil) -> Range<Index>? {
        let scope = range ?? startIndex..<endIndex
        let view = self[scope].utf8
        guard let offset = ByteSearch.firstOffset(of: needle.utf8, in: view) else { return nil }
        let lower = view.index(view.startIndex, offsetBy: offset)
        return lower..<view.index(lower, offsetBy: needle.utf8.count)
    }

    /// Where `needle` last occurs, compared byte by byte (Foundation's `range(of:options: .backwards)`).
    public func lastByteRange(of needle: String) -> Range<Index>? {
        let hay = Array(utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, hay.count >= pattern.count else { return nil }
        var offset = hay.count - pattern.count
        while offset >= 0 {
            if hay[offset] == pattern[0], hay[offset...].starts(with: pattern) {
                let lower = utf8.index(utf8.startIndex, offsetBy: offset)
                return lower..<utf8.index(lower, offsetBy: pattern.count)
            }
            offset -= 1
        }
        return nil
    }
}
