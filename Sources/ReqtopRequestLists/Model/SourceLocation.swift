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
    /// The lines of a text file: split at `\n` and `\r\n` (a single `Character` in Swift),
    /// without the line terminators.
    func splitLines() -> [String] {
        split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
    }
}
