/// A malformed or unresolvable request list, pointing at the offending place.
///
/// `description` renders like a compiler diagnostic:
/// ```
/// api.http:3:12: error: unknown variable 'host'
/// GET https://{{host}}/users
///            ^
/// ```
public struct RequestListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file the error is in.
    public var file: String
    /// 1-based line; 0 when the error is about the file as a whole (missing, unreadable).
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What went wrong and, where possible, what to do.
    public var message: String
    /// The full text of the offending line (empty when there is none, e.g. a missing file).
    public var lineText: String
    /// The request needs what reqtop does not run (a variable only a skipped script sets, a JavaScript
    /// expression in `{{ }}`, a part of the list reqtop refuses: `RequestSpec.refusal`): it is not
    /// sent, the rest runs.
    public var needsRequestScript = false
    /// What was said before the error and may explain it (a variable that expanded to nothing),
    /// printed after it.
    public var notes: [String] = []

    public init(file: String, line: Int, column: Int, message: String, lineText: String) {
        self.file = file
        self.line = max(0, line)
        self.column = line > 0 ? max(1, column) : 0
        self.message = message
        self.lineText = lineText
    }

    public init(_ message: String, at location: SourceLocation, lineText: String) {
        self.init(file: location.file, line: location.line, column: location.column, message: message, lineText: lineText)
    }

    /// Where the error is.
    public var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    public var description: String {
        // Line 0 means the file as a whole (it is missing or unreadable).
        var text = line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
        if !lineText.isEmpty {
            // At most `Excerpt.limit` characters of the line, around the column.
            let shown = Excerpt.window(of: lineText.replacingTabsAndControls(), column: column)
            text += "\n\(shown.text)\n" + String(repeating: " ", count: max(0, shown.column - 1)) + "^"
        }
        for note in notes { text += "\nnote: \(note)" }
        return text
    }
}
