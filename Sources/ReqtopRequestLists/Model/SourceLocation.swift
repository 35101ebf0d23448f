/// A position in a request-list file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file path as given to the loader (or a descriptive name such as `<command line>`).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in characters.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`
    public var description: String { "\(file):\(line):\(column)" }
}

extension StringProtocol {
    /// The lines of a text file: split at `\n` and `\r\n`, without the line terminators (a line
    /// ending `\r\r\n` loses both carriage returns). Split on the bytes: splitting on `Character`s
    /// was a sixth of parsing a 100,000-request list.
    func splitLines() -> [String] {
        let text = String(self)
        var lines: [String] = []
        var start = text.utf8.startIndex
        var index = start
        let end = text.utf8.endIndex
        func line(_ from: String.Index, _ to: String.Index, terminated: Bool) -> String {
            var to = to
            for _ in 0..<(terminated ? 2 : 1) where to > from && text.utf8[text.utf8.index(before: to)] == UInt8(ascii: "\r") {
                to = text.utf8.index(before: to)
            }
            return String(text[from..<to])
        }
        while index < end {
            if text.utf8[index] == UInt8(ascii: "\n") {
                lines.append(line(start, index, terminated: true))
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        lines.append(line(start, end, terminated: false))
        return lines
    }

    /// How many spaces and tabs the text starts with (its indentation, in characters).
    var leadingWhitespaceCount: Int {
        var count = 0
        for byte in utf8 {
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { break }
            count += 1
        }
        return count
    }
}
