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
