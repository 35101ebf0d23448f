import FoundationEssentials

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
        guard bytes.baseAddress != nil else {
            lines.append(TextLine(bytes: bytes))
            return nil
        }
        var position: Int? = start
        while let lineStart = position {
            let found = TextLines.line(in: bytes, from: lineStart)
            if !lines.isEmpty, isSeparator(found.line) { return lineStart }
            lines.append(found.line)
            position = found.next
        }
        return nil
    }
}
