import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One line of a text as a view of its UTF-8 bytes, without its line terminator: what the `.http`
/// parser looks at. Checking and trimming a line costs no allocation and no reference counting (a
/// `Substring` and a `String` per line were most of parsing a 100,000-request list); a `String` is
/// made only for what the parse keeps. Valid only while the text's buffer is (see `TextLines.split`).
struct TextLine {
    let bytes: UnsafeBufferPointer<UInt8>

    var isEmpty: Bool { bytes.isEmpty }
    var first: UInt8? { bytes.first }
    /// The line as a `String` (the text was valid UTF-8 and lines end at ASCII bytes, so it still is).
    var string: String { String(decoding: bytes, as: UTF8.self) }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// Without leading and trailing spaces, tabs and carriage returns (as `trimmingWhitespace()`).
    var trimmed: TextLine {
        var start = 0, end = bytes.count
        while start < end, Self.isBlank(bytes[start]) { start += 1 }
        while end > start, Self.isBlank(bytes[end - 1]) { end -= 1 }
        return self[start..<end]
    }

    /// How many spaces and tabs the line starts with (its indentation; one byte, one character each).
    var leadingWhitespaceCount: Int {
        var count = 0
        while count < bytes.count, bytes[count] == UInt8(ascii: " ") || bytes[count] == UInt8(ascii: "\t") { count += 1 }
        return count
    }

    /// Whether the line starts with a space or a tab.
    var isIndented: Bool { first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") }

    /// Whether every byte is ASCII (then byte offsets are character columns).
    var isASCII: Bool { bytes.allSatisfy { $0 < 0x80 } }

    subscript(range: Range<Int>) -> TextLine { TextLine(bytes: UnsafeBufferPointer(rebasing: bytes[range])) }

    func dropFirst(_ count: Int) -> TextLine { self[Swift.min(count, bytes.count)..<bytes.count] }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.baseAddress else { return count == 0 }
        return memcmp(base, prefix.utf8Start, count) == 0
    }

    func hasSuffix(_ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.baseAddress else { return count == 0 }
        return memcmp(base + (bytes.count - count), suffix.utf8Start, count) == 0
    }

    static func == (line: TextLine, text: StaticString) -> Bool {
        line.bytes.count == text.utf8CodeUnitCount && line.hasPrefix(text)
    }

    /// The offset of the first `byte`, or nil.
    func firstIndex(of byte: UInt8) -> Int? { bytes.firstIndex(of: byte) }

    /// Whether the two bytes `first` `second` (e.g. `": "`) occur in the line.
    func contains(_ first: UInt8, _ second: UInt8) -> Bool { firstIndex(ofPair: first, second) != nil }

    /// The offset of the first occurrence of `first` followed by `second`, or nil.
    func firstIndex(ofPair first: UInt8, _ second: UInt8) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == first, bytes[index + 1] == second { return index }
            index += 1
        }
        return nil
    }

    /// The character column of a byte offset (equal to it on ASCII lines).
    func characterColumn(ofByte offset: Int) -> Int {
        let prefix = self[0..<offset]
        return prefix.isASCII ? offset : prefix.string.count
    }
}

/// Splitting a text into `TextLine`s: at `\n` and `\r\n`, without the line terminators (a line
/// ending `\r\r\n` loses both carriage returns).
enum TextLines {
    /// The line that starts at byte `start` of `bytes` (whose base address is not nil), and where
    /// the next one starts: nil when this one runs to the end of the text.
    static func line(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (line: TextLine, next: Int?) {
        let base = bytes.baseAddress!
        let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        var end = newline ?? bytes.count
        // The carriage returns before a line feed (two at most), or one at the end of the text.
        for _ in 0..<(newline == nil ? 1 : 2) where end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return (TextLine(bytes: UnsafeBufferPointer(start: base + start, count: end - start)), newline.map { $0 + 1 })
    }

    /// Every line of `bytes` (a text ending with a line feed has an empty last line).
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [TextLine] {
        guard bytes.baseAddress != nil else { return [TextLine(bytes: bytes)] }
        var lines: [TextLine] = []
        var position: Int? = 0
        while let start = position {
            let found = line(in: bytes, from: start)
            lines.append(found.line)
            position = found.next
        }
        return lines
    }
}
