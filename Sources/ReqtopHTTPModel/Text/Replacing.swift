/// Literal search and replace on bytes, as Foundation's `replacingOccurrences(of:with:)` and
/// `Data.range(of:)` compare: code unit by code unit (the standard library's `replacing` compares
/// `Character`s, so `"\n"` would not match inside `"\r\n"`).
extension StringProtocol {
    /// The text with every occurrence of `target` (left to right, not overlapping) replaced.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let hay = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, hay.count >= needle.count else { return String(self) }
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

/// Byte-sequence search.
public enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `hay` at or after `start`.
    public static func firstOffset(of needle: some Collection<UInt8>, in hay: some RandomAccessCollection<UInt8>, from start: Int = 0) -> Int? {
        let needle = Array(needle)
        guard let first = needle.first, hay.count >= needle.count else { return nil }
        let base = hay.startIndex
        var offset = start
        while offset <= hay.count - needle.count {
            if hay[hay.index(base, offsetBy: offset)] == first,
               hay[hay.index(base, offsetBy: offset)...].starts(with: needle) { return offset }
            offset += 1
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
        guard let offset = ByteSearch.firstOffset(of: needle.utf8, in: Array(view)) else { return nil }
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
