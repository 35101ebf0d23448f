/// Redirections of a shell command: `< file`, `<<EOF` heredocs, `<<< word`, and the `>`/`2>&1`
/// targets that are consumed (output goes nowhere reqtop cares about).
extension ShellWords {
    /// `< file`, `<< DELIM` / `<<- DELIM` (the body is read when the line ends), `<<< word`.
    /// Returns true for a heredoc.
    mutating func inputRedirection(into command: inout Command) throws(Unbalanced) -> Bool {
        let (startLine, startColumn) = (line, column)
        advance()
        if current == "<", peek(1) == "<" {
            advance(); advance()
            guard let text = try nextWord() else { throw Unbalanced(message: "'<<<' needs a string", line: startLine, column: startColumn) }
            command.stdin = .text(text + "\n")
            return false
        }
        if current == "<" {
            advance()
            var stripTabs = false
            if current == "-" { stripTabs = true; advance() }
            while current == " " || current == "\t" { advance() }
            let quoted = current == "'" || current == "\""
            guard let delimiter = try nextWord() else {
                throw Unbalanced(message: "'<<' needs a delimiter word", line: startLine, column: startColumn)
            }
            pendingHeredocs.append((delimiter, stripTabs, !quoted))
            command.stdin = .text("")
            return true
        }
        guard let path = try nextWord() else { throw Unbalanced(message: "'<' needs a file name", line: startLine, column: startColumn) }
        command.stdin = .file(path)
        return false
    }

    /// Reads the bodies of the heredocs opened on the line that just ended into `commands[targets]`.
    mutating func readHeredocs(into commands: inout [Command], at targets: [Int]) throws(Unbalanced) {
        guard !pendingHeredocs.isEmpty else { return }
        for (heredoc, target) in zip(pendingHeredocs, targets) {
            var body = ""
            var closed = false
            while current != nil {
                var text = ""
                while let c = current, !Self.isNewline(c) { text.append(c); advance() }
                if current != nil { advance() }
                let candidate = heredoc.stripTabs ? String(text.drop { $0 == "\t" }) : text
                if candidate == heredoc.delimiter { closed = true; break }
                body += candidate + "\n"
            }
            guard closed else { throw Unbalanced(message: "heredoc is not closed with \(quoting: heredoc.delimiter)", line: line, column: column) }
            if target < commands.count {
                commands[target].stdin = .text(heredoc.expands ? expandVariables(in: body) : body)
                commands[target].unreplayable = commands[target].unreplayable ?? unreplayable
                unreplayable = nil
            }
        }
        pendingHeredocs = []
    }

    /// The word after a redirection operator (quotes understood); nil when there is none.
    mutating func nextWord() throws(Unbalanced) -> String? {
        while current == " " || current == "\t" { advance() }
        var text = ""
        var any = false
        while let c = current, c != " ", c != "\t", !Self.isNewline(c), c != ";", c != "|", c != "&", c != ">", c != "<" {
            any = true
            if c == "`" || (c == "$" && peek(1) == "(") {
                try skipCommandSubstitution()
                continue
            }
            switch c {
            case "'": text += try singleQuoted()
            case "\"": text += try doubleQuoted()
            case "$" where peek(1) == "'": text += try ansiQuoted()
            case "$" where Self.startsVariable(peek(1)): text += expandVariable()
            default: text.append(c); advance()
            }
        }
        return any ? text : nil
    }

    /// Consumes `>`, `>>`, `>&`, then the target (`file`, `&1`, `2`).
    mutating func skipRedirectionTarget() throws(Unbalanced) {
        while current == ">" { advance() }
        if current == "&" { advance() }
        _ = try nextWord()
    }
}
