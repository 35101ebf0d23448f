import FoundationEssentials

/// `$NAME`, `${NAME}`, `${NAME:-word}` and friends as bash expands them; assignments; command
/// substitutions (unreplayable, or a curl inside one read and sent).
extension ShellWords {
    static func startsVariable(_ c: Character?) -> Bool {
        guard let c else { return false }
        return c == "{" || c == "_" || (c.isASCII && c.isLetter)
    }

    /// `$NAME` or `${NAME}` at `current`, expanded from the script's assignments, else the environment
    /// (unset: nothing, and a warning; set by a command substitution: the command is unreplayable).
    mutating func expandVariable() -> String {
        let (startLine, startColumn) = (line, column)
        advance() // $
        var name = ""
        if current == "{" {
            advance()
            var depth = 0
            while let c = current, c != "}" || depth > 0 {
                if c == "{" { depth += 1 } else if c == "}" { depth -= 1 }
                name.append(c)
                advance()
            }
            if current == "}" { advance() }
            if let expanded = expandParameter(name, line: startLine, column: startColumn) { return expanded }
        } else {
            while let c = current, c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) { name.append(c); advance() }
        }
        if let value = assigned[name] { return value }
        if let element = arrayElement(name) { return element }
        if let origin = substituted[name] {
            unreplayable = unreplayable ?? ("$\(name) is set at line \(origin.line) by a command substitution, which cannot be replayed: "
                                            + "put the value itself", startLine, startColumn)
            return ""
        }
        guard let value = environment[name] else {
            warnings.append(("$\(name) is set neither in the script nor in the environment: it expands to nothing, as in bash", startLine, startColumn))
            return ""
        }
        return value
    }

    /// `${NAME:-word}`, `${NAME-word}`, `${NAME:=word}`, `${NAME=word}`, `${NAME:+word}` and
    /// `${NAME+word}` as bash expands them (the word's own `$NAME`s expanded too); nil for any other
    /// `${…}`.
    mutating func expandParameter(_ text: String, line: Int, column: Int) -> String? {
        guard let match = text.wholeMatch(of: /([A-Za-z_][A-Za-z0-9_]*)(:?)([-=+])(.*)/) else { return nil }
        let name = String(match.1)
        let value: String? = assigned[name] ?? arrayElement(name) ?? (substituted[name] == nil ? environment[name] : nil)
        if substituted[name] != nil {
            unreplayable = unreplayable ?? ("$\(name) is set at line \(substituted[name]!.line) by a command substitution, which cannot be "
                                            + "replayed: put the value itself", line, column)
            return ""
        }
        let isSet = match.2.isEmpty ? value != nil : !(value ?? "").isEmpty // `:` also treats empty as unset
        switch match.3 {
        case "+": return isSet ? expandedWord(String(match.4), line: line, column: column) : ""
        case "=":
            if isSet { return value ?? "" }
            let chosen = expandedWord(String(match.4), line: line, column: column)
            assigned[name] = chosen
            return chosen
        default: return isSet ? value ?? "" : expandedWord(String(match.4), line: line, column: column)
        }
    }

    /// The word of `${NAME:-word}` as bash expands it: quotes removed, `$NAME`s expanded; what it
    /// says (an unset variable, a command substitution that makes the command unreplayable) is said
    /// at the `${`.
    private mutating func expandedWord(_ text: String, line: Int, column: Int) -> String {
        var lexer = child(text)
        guard let commands = try? lexer.run() else { return text }
        warnings += lexer.warnings.map { ($0.message, line, column) }
        if let why = commands.lazy.compactMap(\.unreplayable).first { unreplayable = unreplayable ?? (why.message, line, column) }
        return (commands.last?.words.map(\.text) ?? []).joined(separator: " ")
    }

    /// Skips `$(…)` (nested parentheses and quotes inside) or `` `…` `` at `current`, noting that the
    /// command holding it cannot be replayed: reqtop does not run other programs.
    mutating func skipCommandSubstitution() throws(Unbalanced) {
        let (startLine, startColumn) = (line, column)
        let backticks = current == "`"
        unreplayable = unreplayable ?? ("\(backticks ? "backticks" : "$(…)") (command substitution) cannot be replayed: put the value itself",
                                        startLine, startColumn)
        advance()
        if backticks {
            let inner = (index, line, column)
            while let c = current, c != "`" { if c == "\\" { advance() }; if current != nil { advance() } }
            guard current == "`" else { throw Unbalanced(message: "unbalanced backtick: add the closing `", line: startLine, column: startColumn) }
            advance()
            try readCurlInSubstitution(from: inner, to: index - 1)
            return
        }
        advance() // (
        let inner = (index, line, column)
        var depth = 1
        while let c = current {
            switch c {
            case "(": depth += 1; advance()
            case ")":
                depth -= 1
                advance()
                if depth == 0 {
                    try readCurlInSubstitution(from: inner, to: index - 1)
                    return
                }
            case "'": _ = try singleQuoted()
            case "\"": _ = try doubleQuoted()
            case "\\": advance(); if current != nil { advance() }
            default: advance()
            }
        }
        throw Unbalanced(message: "unbalanced $( : add the closing )", line: startLine, column: startColumn)
    }

    /// A curl command run for its output (`out=$(curl -s …)`, `if [[ $(curl …) ]]`) still sends its
    /// request: its commands are read (with the script's variables so far) and replayed, after a
    /// warning that the script used what it printed.
    mutating func readCurlInSubstitution(from start: (index: Int, line: Int, column: Int), to end: Int) throws(Unbalanced) {
        guard start.index < end else { return }
        let text = chars[start.index..<end]
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" && !Self.isNewline($0) }),
              text[first...].starts(with: "curl ") else { return }
        var lexer = child(text)
        lexer.line = start.line
        lexer.column = start.column
        let found = try lexer.run()
        warnings += lexer.warnings
        for command in found where command.words.first?.text == "curl" {
            warnings.append(("curl inside a command substitution: its request is sent; what the script did with its output is not",
                             command.words[0].line, command.words[0].column))
        }
        nested += found
    }

    /// Applies a command made of assignments only (`NAME=value`, also after `export`, `readonly`,
    /// `local` or `declare`) to the script's variables and returns nil (nothing to run); otherwise
    /// returns the command's words without leading `NAME=value` words (they only set that command's
    /// environment, which reqtop does not pass on: a warning says so).
    mutating func applyAssignments(_ command: Command) -> [Word]? {
        var words = command.words
        let declares = ["export", "readonly", "local", "declare", "typeset"].contains(words.first?.text ?? "")
        if declares {
            // `export -n A=1 B`: flags and bare names set nothing reqtop uses; the assignments apply.
            words = words.dropFirst().filter { Self.assignment($0.text) != nil }
        }
        let assignments = words.prefix { Self.assignment($0.text) != nil }
        if assignments.count == words.count, !words.isEmpty || declares {
            for word in assignments {
                guard let (name, value) = Self.assignment(word.text) else { continue }
                if let why = command.unreplayable {
                    substituted[name] = (why.line, why.column)
                    assigned[name] = nil
                } else {
                    assigned[name] = value
                    substituted[name] = nil
                }
            }
            return nil
        }
        if let first = assignments.first {
            warnings.append(("\(quoting: assignments.map(\.text).joined(separator: " ")) sets the environment of this command only, which reqtop does not pass on",
                             first.line, first.column))
        }
        return Array(words.dropFirst(assignments.count))
    }

    /// `NAME=value` split in two, or nil when `text` is not an assignment.
    static func assignment(_ text: String) -> (name: String, value: String)? {
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex else { return nil }
        let name = text[..<equals]
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter),
              name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else { return nil }
        return (String(name), String(text[text.index(after: equals)...]))
    }

    /// `$NAME` and `${NAME}` expanded in a heredoc's text.
    mutating func expandVariables(in text: String) -> String {
        var lexer = child(text)
        var out = ""
        while let c = lexer.current {
            if c == "$", Self.startsVariable(lexer.peek(1)) {
                out += lexer.expandVariable()
            } else if c == "`" || (c == "$" && lexer.peek(1) == "(") {
                // bash would run it: the command that reads this heredoc cannot be replayed.
                do { try lexer.skipCommandSubstitution() } catch { lexer.advance() }
            } else {
                out.append(c)
                lexer.advance()
            }
        }
        warnings += lexer.warnings.map { ($0.message, line, column) }
        unreplayable = unreplayable ?? lexer.unreplayable.map { ($0.message, line, column) }
        return out
    }
}
