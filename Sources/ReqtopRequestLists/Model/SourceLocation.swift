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
        let lines = SourceLines(String(self))
        return (0..<lines.count).map { String(lines[$0]) }
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

/// The lines of a text as slices of it: where each starts and ends, not a `String` per line
/// (400,000 line strings were a quarter of parsing a 100,000-request list's memory).
/// Split like `splitLines()`.
struct SourceLines {
    private let text: String
    private var bounds: [(start: String.Index, end: String.Index)] = []

    init(_ text: String) {
        self.text = text
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        func add(_ end: String.Index, terminated: Bool) {
            var end = end
            for _ in 0..<(terminated ? 2 : 1) where end > start && bytes[bytes.index(before: end)] == UInt8(ascii: "\r") {
                end = bytes.index(before: end)
            }
            bounds.append((start, end))
        }
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                add(index, terminated: true)
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        add(bytes.endIndex, terminated: false)
    }

    var count: Int { bounds.count }

    subscript(line: Int) -> Substring { text[bounds[line].start..<bounds[line].end] }

    subscript(lines: Range<Int>) -> [Substring] { lines.map { self[$0] } }
}
