/// Loops in curl scripts, as bash runs them: `for NAME in WORDS; do …; done` over literal words,
/// brace ranges (`{1..5}`, `{a,b}`) or an array the script declares (`"${ids[@]}"`) runs its body
/// once per word, each iteration's commands read with `$NAME` set. A loop over anything reqtop
/// cannot know without running the script — command output, globs, the script's arguments, a
/// `while`/`until` condition, a C-style `for ((…))` — makes every command in its body unreplayable:
/// "curl inside a loop over …: not replayable", at the loop's line.
extension ShellWords {
    static let loopKeywords: Set<String> = ["for", "while", "until", "select"]

    /// Reads a loop whose keyword was just read (the blank after it is `current`) through its `done`,
    /// appending the commands of its iterations.
    mutating func readLoop(_ keyword: Word, into commands: inout [Command]) throws(Unbalanced) {
        let header = try loopHeader(keyword)
        let body = try loopBody(keyword)
        var iterations: [(name: String, value: String)?] = []
        var notReplayable: String?
        switch header {
        case let .words(name, words): iterations = words.map { (name, $0) }
        case let .unknown(name, what):
            // Read once, its variable standing for itself (no "expands to nothing" about it).
            notReplayable = what
            iterations = [name.isEmpty ? nil : (name, "$" + name)]
        }
        for iteration in iterations {
            var lexer = child(chars[body.start..<body.end])
            lexer.line = body.line
            lexer.column = body.column
            if let iteration { lexer.assigned[iteration.name] = iteration.value }
            var found = try lexer.run()
            budget.commands += found.count
            guard budget.commands <= LoopBudget.limit else {
                throw Unbalanced(message: "the script's loops make more than \(LoopBudget.limit) commands: run it in parts",
                                 line: keyword.line, column: keyword.column)
            }
            if let notReplayable {
                for i in found.indices {
                    found[i].unreplayable = ("curl inside a loop over \(notReplayable): not replayable (reqtop replays loops over "
                                             + "literal words and arrays the script declares)", keyword.line, keyword.column)
                }
            }
            commands += found
            // Each iteration says the same things: once.
            for warning in lexer.warnings where !warnings.contains(where: { $0 == warning }) { warnings.append(warning) }
            // What the body assigns stays set after the loop, as in bash.
            assigned = lexer.assigned
            arrays = lexer.arrays
            substituted = lexer.substituted
            if let iteration, notReplayable == nil { assigned[iteration.name] = iteration.value }
        }
        if iterations.isEmpty {
            warnings.append(("the loop runs over no words: its commands are never run", keyword.line, keyword.column))
        }
    }

    private enum LoopHeader {
        /// `for name in` these words.
        case words(name: String, [String])
        /// What the loop runs over, in words, when reqtop cannot know it (and the loop's variable, if any).
        case unknown(name: String, String)
    }

    /// From after the keyword up to and including `do`.
    private mutating func loopHeader(_ keyword: Word) throws(Unbalanced) -> LoopHeader {
        let start = index
        func rawUntilDo() throws(Unbalanced) -> String {
            // The condition or list, raw, up to the `do` that starts the body.
            var text = ""
            while let c = current {
                if Self.isNewline(c) || c == ";" {
                    advance()
                    skipBlanksAndNewlines()
                    if startsWord("do") { advance(); advance(); return text.trimmingWhitespace() }
                    text.append(" ")
                    continue
                }
                if c == "'" { text += "'" + (try singleQuoted()) + "'"; continue }
                if c == "\"" { text += "\"" + (try doubleQuoted()) + "\""; continue }
                text.append(c)
                advance()
            }
            throw Unbalanced(message: "\(keyword.text) loop without 'do'", line: keyword.line, column: keyword.column)
        }
        skipBlanks()
        if keyword.text != "for" && keyword.text != "select" {
            let condition = try rawUntilDo()
            return .unknown(name: "", "a \(keyword.text) condition (\(Excerpt.of(condition)))")
        }
        if current == "(", peek(1) == "(" {
            var text = ""
            while let c = current, !(c == ")" && peek(1) == ")") { text.append(c); advance() }
            _ = try rawUntilDo()
            return .unknown(name: "", "a C-style for \(Excerpt.of(text + "))"))")
        }
        var name = ""
        while let c = current, c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) { name.append(c); advance() }
        skipBlanks()
        guard startsWord("in") else {
            _ = try rawUntilDo()
            return .unknown(name: name, "the script's arguments")
        }
        advance(); advance()
        // The words up to `;` or the end of the line, each read raw first to see what it is.
        var words: [String] = []
        var unknown: String?
        while true {
            skipBlanks()
            guard let c = current else { break }
            if c == ";" || Self.isNewline(c) { break }
            let raw = try rawWord()
            if let expanded = try expandLoopWord(raw) {
                words += expanded
            } else if unknown == nil {
                unknown = raw
            }
        }
        if current != nil { advance() }
        skipBlanksAndNewlines()
        guard startsWord("do") else {
            index = start
            throw Unbalanced(message: "for loop without 'do'", line: keyword.line, column: keyword.column)
        }
        advance(); advance()
        if let unknown { return .unknown(name: name, Self.describeLoopWord(unknown)) }
        return .words(name: name, words)
    }

    /// One word of a `for` list as bash expands it, when that needs nothing but the script: literal
    /// text, quotes, the script's variables (unquoted: split at blanks), brace ranges and declared
    /// arrays; nil for command output, globs and undeclared arrays.
    private func expandLoopWord(_ raw: String) throws(Unbalanced) -> [String]? {
        if raw.containsBytes("$(") || raw.containsBytes("`") { return nil }
        if let array = raw.wholeMatch(of: /"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?/) {
            return arrays[String(array.1)]
        }
        if let range = raw.wholeMatch(of: /\{(-?[0-9]+)\.\.(-?[0-9]+)(?:\.\.(-?[0-9]+))?\}/) {
            // (Compared as Doubles: a range of 64-bit ends must not trap.)
            guard let from = Int(range.1), let to = Int(range.2), abs(Double(to) - Double(from)) < Double(LoopBudget.limit) else {
                throw Unbalanced(message: "the brace range \(raw) has more than \(LoopBudget.limit) words", line: line, column: column)
            }
            let written = range.3.flatMap { Int($0) } ?? 1
            let step = written == Int.min ? Int.max : max(1, abs(written))
            return from <= to ? stride(from: from, through: to, by: step).map(String.init)
                : stride(from: from, through: to, by: -step).map(String.init)
        }
        if let list = raw.wholeMatch(of: /\{([^{},]*(,[^{},]*)+)\}/) { return list.1.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // `${NAME[…]}` of an array the script does not declare cannot be known; `[` inside `${…}` is not a glob.
        for reference in raw.matches(of: /\$\{([A-Za-z_][A-Za-z0-9_]*)\[/) where arrays[String(reference.1)] == nil { return nil }
        if Self.hasUnquotedGlob(raw.replacing(/\$\{[^}]*\}/, with: "")) { return nil }
        var lexer = child(raw)
        let words = try lexer.run().flatMap(\.words).map(\.text)
        // An unquoted `$NAME` is split at blanks (`LIST="a b c"; for x in $LIST`).
        if raw.hasPrefix("$"), !raw.containsBytes("\"") { return words.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init) } }
        return words
    }

    private static func describeLoopWord(_ raw: String) -> String {
        if raw.containsBytes("$(") || raw.containsBytes("`") { return "command output \(Excerpt.of(raw))" }
        if raw.containsBytes("${"), raw.containsBytes("[") { return "an array the script does not declare (\(Excerpt.of(raw)))" }
        if hasUnquotedGlob(raw) { return "the files of a glob (\(Excerpt.of(raw)))" }
        return Excerpt.of(raw)
    }

    private static func hasUnquotedGlob(_ raw: String) -> Bool {
        var quote: Character?
        for c in raw {
            if let q = quote { if c == q { quote = nil }; continue }
            if c == "'" || c == "\"" { quote = c; continue }
            if c == "*" || c == "?" || c == "[" { return true }
        }
        return false
    }

    /// The body: from after `do` to its matching `done` (nested loops counted, quotes and comments
    /// skipped), which is consumed. `do` and `done` count only where a command starts, as in bash:
    /// `echo done` is an argument.
    private mutating func loopBody(_ keyword: Word) throws(Unbalanced) -> (start: Int, end: Int, line: Int, column: Int) {
        let start = (index, line, column)
        var depth = 1
        var atCommandStart = true
        while let c = current {
            if c == " " || c == "\t" || c == "\r" { advance(); continue }
            if Self.isNewline(c) || c == ";" || c == "&" || c == "|" || c == "(" || c == ")" {
                atCommandStart = true
                advance()
                continue
            }
            if c == "#" {
                while let d = current, !Self.isNewline(d) { advance() }
                continue
            }
            // A word: read through its quotes and escapes.
            let wordStart = index
            while let d = current, d != " ", d != "\t", d != "\r", !Self.isNewline(d), d != ";", d != "&", d != "|", d != "(", d != ")" {
                switch d {
                case "'": _ = try singleQuoted()
                case "\"": _ = try rawDoubleQuoted()
                case "\\": advance(); if current != nil { advance() }
                default: advance()
                }
            }
            let word = String(chars[wordStart..<index])
            if atCommandStart, word == "done" {
                depth -= 1
                if depth == 0 { return (start.0, wordStart, start.1, start.2) }
            } else if atCommandStart, word == "do" {
                depth += 1
            }
            // After `do`, `then`, `!` … a command starts again; after any other word it goes on.
            atCommandStart = atCommandStart && Self.reservedWords.contains(word)
        }
        throw Unbalanced(message: "\(keyword.text) loop without 'done'", line: keyword.line, column: keyword.column)
    }

    /// Whether `word` is at `current`, followed by a blank, `;`, a newline or the end.
    private func startsWord(_ word: String) -> Bool {
        for (offset, expected) in word.enumerated() where peek(offset) != expected { return false }
        guard let after = peek(word.count) else { return true }
        return after == " " || after == "\t" || after == ";" || after == "\r" || Self.isNewline(after)
    }

    private mutating func skipBlanks() {
        while current == " " || current == "\t" || current == "\r" { advance() }
    }

    private mutating func skipBlanksAndNewlines() {
        while let c = current, c == " " || c == "\t" || c == "\r" || Self.isNewline(c) { advance() }
    }

    /// A word as written (quotes kept), up to an unquoted blank, `;` or newline.
    private mutating func rawWord() throws(Unbalanced) -> String {
        var text = ""
        while let c = current, c != " ", c != "\t", c != ";", !Self.isNewline(c) {
            switch c {
            case "'": text += "'" + (try singleQuoted()) + "'"
            case "\"": text += "\"" + (try rawDoubleQuoted()) + "\""
            case _ where c == "`" || (c == "$" && peek(1) == "("):
                let from = index
                try skipCommandSubstitution()
                unreplayable = nil
                text += String(chars[from..<index])
            default: text.append(c); advance()
            }
        }
        return text
    }

    /// A double-quoted string's text as written (no expansion), `current` on the opening quote.
    private mutating func rawDoubleQuoted() throws(Unbalanced) -> String {
        let (startLine, startColumn) = (line, column)
        advance()
        var out = ""
        while let c = current {
            if c == "\"" { advance(); return out }
            if c == "\\", let next = peek(1) { out.append(c); out.append(next); advance(); advance(); continue }
            out.append(c)
            advance()
        }
        throw Unbalanced(message: "unbalanced double quote: add the closing \"", line: startLine, column: startColumn)
    }

    /// `NAME=(a "b c" d)`: the elements, `current` on `(`; through the `)`.
    mutating func arrayElements() throws(Unbalanced) -> [String] {
        let (startLine, startColumn) = (line, column)
        advance()
        var raw: [Character] = []
        var quote: Character?
        while let c = current {
            if quote == nil, c == ")" {
                advance()
                var lexer = child(raw.map { Self.isNewline($0) ? " " : $0 })
                return try lexer.run().flatMap(\.words).map(\.text)
            }
            if let q = quote { if c == q { quote = nil } } else if c == "'" || c == "\"" { quote = c }
            if c == "\\", quote != "'", let next = peek(1) { raw.append(c); raw.append(next); advance(); advance(); continue }
            raw.append(c)
            advance()
        }
        throw Unbalanced(message: "unbalanced array: add the closing )", line: startLine, column: startColumn)
    }

    /// `NAME[@]`, `NAME[*]` (the elements joined by blanks) or `NAME[n]` of a declared array.
    func arrayElement(_ reference: String) -> String? {
        guard let match = reference.wholeMatch(of: /([A-Za-z_][A-Za-z0-9_]*)\[([0-9]+|@|\*)\]/), let array = arrays[String(match.1)] else { return nil }
        if match.2 == "@" || match.2 == "*" { return array.joined(separator: " ") }
        return Int(match.2).flatMap { $0 < array.count ? array[$0] : "" }
    }
}
