import Foundation

/// Splits shell command lines into commands of words the way bash does: whitespace, `'…'`,
/// `"…"` (with `\` escapes), `$'…'` (ANSI-C escapes), backslash escapes, backslash-newline
/// continuations, `#` comments, and `;`, `&&`, `||`, `|`, `&` and newlines between commands.
/// `$VAR` and `${VAR}` are expanded in bare words and double quotes from the script's own
/// assignments above them (`DIR=normal`, `export BASE=$HOST/v1`), else from the environment (an
/// unset one expands to nothing, with a warning). Redirections are understood: `< file`, a
/// `<<EOF` heredoc and a `<<< word` herestring become the command's standard input; `>`, `>>`,
/// `2>`, `&>` and `2>&1` targets are consumed. Backticks and `$(…)` cannot be replayed: the command
/// that holds one is marked (`Command.unreplayable`), and so is a later use of a variable set by one.
struct ShellWords {
    struct Word: Hashable {
        var text: String
        /// 1-based line and column where the word starts.
        var line: Int
        var column: Int
    }

    /// One command: its words and where its standard input comes from.
    struct Command {
        var words: [Word] = []
        var stdin: Stdin?
        /// Why the command cannot be replayed as written (a command substitution in it, or a variable
        /// one set), and where: an error for a curl command, a reason to skip for any other.
        var unreplayable: (message: String, line: Int, column: Int)?
    }

    enum Stdin: Hashable {
        /// `< path`.
        case file(String)
        /// A heredoc's or herestring's text.
        case text(String)
    }

    struct Unbalanced: Error {
        var message: String
        var line: Int
        var column: Int
    }

    let chars: [Character]
    let environment: [String: String]
    /// Variables the script assigns (`NAME=value` commands), used by the commands after them.
    var assigned: [String: String] = [:]
    /// Arrays the script declares (`NAME=(a b c)`), for `for x in "${NAME[@]}"`.
    var arrays: [String: [String]] = [:]
    /// Variables assigned from a command substitution: where, to say so when one is used.
    var substituted: [String: (line: Int, column: Int)] = [:]
    /// What makes the command being read unreplayable (see `Command.unreplayable`).
    var unreplayable: (message: String, line: Int, column: Int)?
    var index = 0
    var line = 1
    var column = 1
    /// Heredocs opened on the current line, read when the line ends.
    /// Commands found inside a command substitution of the command being read, put before it.
    var nested: [Command] = []
    private var pendingHeredocs: [(delimiter: String, stripTabs: Bool, expands: Bool)] = []
    /// Warnings with their 1-based line and column.
    var warnings: [(message: String, line: Int, column: Int)] = []

    /// The commands in `text` (empty ones left out), and what deserves a warning.
    static func split(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Unbalanced) -> (commands: [Command], warnings: [(message: String, line: Int, column: Int)]) {
        var lexer = ShellWords(chars: Array(text), environment: environment)
        let commands = try lexer.run()
        return (commands, lexer.warnings)
    }

    init(chars: [Character], environment: [String: String]) {
        self.chars = chars
        self.environment = environment
    }

    var current: Character? { index < chars.count ? chars[index] : nil }
    func peek(_ offset: Int) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }

    mutating func advance() {
        if chars[index] == "\n" || chars[index] == "\r\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    /// Words of bash's grammar that start or end a compound command, not a command of their own.
    static let reservedWords: Set<String> = ["if", "then", "else", "elif", "fi", "do", "done", "!", "{", "}", "time", "esac"]

    static func isNewline(_ c: Character) -> Bool { c == "\n" || c == "\r\n" }

    mutating func run() throws(Unbalanced) -> [Command] {
        var commands: [Command] = []
        var command = Command()
        var word: Word?
        var heredocCommands: [Int] = []
        func finishWord() {
            if let w = word { command.words.append(w); word = nil }
        }
        func finishCommand() {
            finishWord()
            commands += nested
            nested = []
            command.unreplayable = unreplayable
            unreplayable = nil
            // `if curl …; then curl …; fi`: the commands inside run (reqtop does not weigh conditions).
            while let first = command.words.first, Self.reservedWords.contains(first.text) { command.words.removeFirst() }
            if let rest = applyAssignments(command) { command.words = rest } else { command = Command(); return }
            if !command.words.isEmpty || command.stdin != nil { commands.append(command) }
            command = Command()
        }
        while let c = current {
            if c == "\\", let next = peek(1), Self.isNewline(next) {
                advance(); advance()
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                if command.words.allSatisfy({ Self.reservedWords.contains($0.text) }), let keyword = word, Self.loopKeywords.contains(keyword.text) {
                    word = nil
                    try readLoop(keyword, into: &commands)
                    continue
                }
                finishWord(); advance(); continue
            }
            if Self.isNewline(c) {
                finishCommand()
                advance()
                try readHeredocs(into: &commands, at: heredocCommands)
                heredocCommands = []
                continue
            }
            if c == "&", peek(1) == ">" {
                finishWord(); advance(); try skipRedirectionTarget(); continue
            }
            if c == ";" || c == "|" || c == "&" {
                finishCommand(); advance(); continue
            }
            if c == "#", word == nil {
                while let d = current, !Self.isNewline(d) { advance() }
                continue
            }
            if c == ">" {
                // `>`, `>>`, `2>`, `1>`, `2>&1`, `>&2`: where output goes; nothing to send.
                if let w = word, w.text == "1" || w.text == "2" { word = nil } else { finishWord() }
                try skipRedirectionTarget()
                continue
            }
            if c == "<", word == nil {
                if try inputRedirection(into: &command) { heredocCommands.append(commands.count) }
                continue
            }
            // `NAME=(…)`, also after `declare -a` and friends.
            if c == "(", command.words.allSatisfy({ ["declare", "local", "readonly", "export", "typeset"].contains($0.text) || $0.text.hasPrefix("-") }),
               let w = word, w.text.hasSuffix("="), let name = Self.assignment(w.text)?.name {
                arrays[name] = try arrayElements()
                assigned[name] = arrays[name]?.first // `$NAME` is its first element, as in bash
                word = nil
                continue
            }
            if word == nil { word = Word(text: "", line: line, column: column) }
            if c == "`" || (c == "$" && peek(1) == "(") {
                try skipCommandSubstitution()
                continue
            }
            switch c {
            case "'":
                word!.text += try singleQuoted()
            case "\"":
                word!.text += try doubleQuoted()
            case "$" where peek(1) == "'":
                word!.text += try ansiQuoted()
            case "$" where Self.startsVariable(peek(1)):
                word!.text += expandVariable()
            case "\\":
                advance()
                if let escaped = current { word!.text.append(escaped); advance() }
            default:
                word!.text.append(c)
                advance()
            }
        }
        finishCommand()
        try readHeredocs(into: &commands, at: heredocCommands)
        return commands
    }

    // MARK: Redirections

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

    // MARK: Expansion

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
        var word: String {
            var lexer = ShellWords(chars: Array(match.4), environment: environment)
            lexer.assigned = assigned
            lexer.arrays = arrays
            return lexer.expandVariables(in: String(match.4))
        }
        switch match.3 {
        case "+": return isSet ? word : ""
        case "=":
            if isSet { return value ?? "" }
            let chosen = word
            assigned[name] = chosen
            return chosen
        default: return isSet ? value ?? "" : word
        }
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
    private mutating func readCurlInSubstitution(from start: (index: Int, line: Int, column: Int), to end: Int) throws(Unbalanced) {
        guard start.index < end else { return }
        let text = chars[start.index..<end]
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" && !Self.isNewline($0) }),
              text[first...].starts(with: "curl ") else { return }
        var lexer = ShellWords(chars: Array(text), environment: environment)
        lexer.line = start.line
        lexer.column = start.column
        lexer.assigned = assigned
        lexer.arrays = arrays
        lexer.substituted = substituted
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
        var lexer = ShellWords(chars: Array(text), environment: environment)
        lexer.assigned = assigned
        lexer.substituted = substituted
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

    // MARK: Quotes

    mutating func singleQuoted() throws(Unbalanced) -> String {
        let (startLine, startColumn) = (line, column)
        advance()
        var out = ""
        while let c = current {
            advance()
            if c == "'" { return out }
            out.append(c)
        }
        throw Unbalanced(message: "unbalanced single quote: add the closing '", line: startLine, column: startColumn)
    }

    mutating func doubleQuoted() throws(Unbalanced) -> String {
        let (startLine, startColumn) = (line, column)
        advance()
        var out = ""
        while let c = current {
            if c == "\"" { advance(); return out }
            if c == "\\", let next = peek(1) {
                if Self.isNewline(next) { advance(); advance(); continue }
                if next == "$" || next == "`" || next == "\"" || next == "\\" {
                    advance()
                    out.append(next)
                    advance()
                    continue
                }
            }
            if c == "$", Self.startsVariable(peek(1)) {
                out += expandVariable()
                continue
            }
            if c == "`" || (c == "$" && peek(1) == "(") {
                try skipCommandSubstitution()
                continue
            }
            out.append(c)
            advance()
        }
        throw Unbalanced(message: "unbalanced double quote: add the closing \"", line: startLine, column: startColumn)
    }

    mutating func ansiQuoted() throws(Unbalanced) -> String {
        let (startLine, startColumn) = (line, column)
        advance(); advance()
        var out = ""
        while let c = current {
            advance()
            if c == "'" { return out }
            guard c == "\\", let e = current else { out.append(c); continue }
            advance()
            switch e {
            case "n": out += "\n"
            case "t": out += "\t"
            case "r": out += "\r"
            case "a": out += "\u{07}"
            case "b": out += "\u{08}"
            case "e", "E": out += "\u{1B}"
            case "f": out += "\u{0C}"
            case "v": out += "\u{0B}"
            case "\\", "'", "\"", "?": out.append(e)
            case "x": out.append(scalar(hexDigits: 2))
            case "u": out.append(scalar(hexDigits: 4))
            case "U": out.append(scalar(hexDigits: 8))
            case "0", "1", "2", "3", "4", "5", "6", "7":
                var value = e.wholeNumberValue ?? 0
                var count = 1
                while count < 3, let d = current, d.isASCII, let digit = d.wholeNumberValue, digit < 8 {
                    value = value * 8 + digit
                    count += 1
                    advance()
                }
                out.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: value)))
            default:
                out.append("\\")
                out.append(e)
            }
        }
        throw Unbalanced(message: "unbalanced $'…' quote: add the closing '", line: startLine, column: startColumn)
    }

    mutating func scalar(hexDigits: Int) -> Character {
        var value: UInt32 = 0
        var count = 0
        while count < hexDigits, let d = current, let digit = d.hexDigitValue {
            value = value * 16 + UInt32(digit)
            count += 1
            advance()
        }
        return Character(Unicode.Scalar(value) ?? "\u{FFFD}")
    }
}
