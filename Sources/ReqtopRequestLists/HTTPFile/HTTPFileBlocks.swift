import Foundation

extension HTTPFileParseState {
    /// The lines of one block of a `.http` text: from the line that starts at byte `start` up to the
    /// next `###` separator line (the first line is taken whatever it is), split like
    /// `TextLines.split`; `next` is where that separator line starts, nil when the text ends first.
    /// A file is parsed block by block, so only one block's lines are ever held.
    static func block(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (lines: [TextLine], next: Int?) {
        var lines: [TextLine] = []
        lines.reserveCapacity(8) // most blocks: a separator, a request line, a few headers, a blank line, a body
        let next = block(in: bytes, from: start, into: &lines)
        return (lines, next)
    }

    /// `block(in:from:)` into `lines` (emptied first, its storage reused): returns `next`.
    static func block(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, into lines: inout [TextLine]) -> Int? {
        lines.removeAll(keepingCapacity: true)
        guard let base = bytes.baseAddress else {
            lines.append(TextLine(bytes: bytes))
            return nil
        }
        var lineStart = start
        while true {
            let newline = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart)
                .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
            var end = newline ?? bytes.count
            // A line loses the carriage returns before its line feed (two at most), or one at the end of the text.
            for _ in 0..<(newline == nil ? 1 : 2) where end > lineStart && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = TextLine(bytes: UnsafeBufferPointer(start: base + lineStart, count: end - lineStart))
            if !lines.isEmpty, isSeparator(line) { return lineStart }
            lines.append(line)
            guard let newline else { return nil }
            lineStart = newline + 1
        }
    }
}
