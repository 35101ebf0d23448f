import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
    /// How many commands the script's loops have made so far (shared with the lexers of loop bodies).
    var budget = LoopBudget()
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
    var pendingHeredocs: [(delimiter: String, stripTabs: Bool, expands: Bool)] = []
    /// Warnings with their 1-based line and column.
    var warnings: [(message: String, line: Int, column: Int)] = []

    /// The commands in `text` (empty ones left out), and what deserves a warning.
    static func split(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Unbalanced) -> (commands: [Command], warnings: [(message: String, line: Int, column: Int)]) {
        var lexer = ShellWords(chars: Array(text), environment: environment)
        let commands = try lexer.run()
        return (commands, lexer.warnings)
    }

    /// A lexer for `text` (a loop body, a default value, a command substitution) that sees this
    /// one's variables, arrays and loop budget.
    func child<S: Sequence>(_ text: S) -> ShellWords where S.Element == Character {
        var lexer = ShellWords(chars: Array(text), environment: environment)
        lexer.assigned = assigned
        lexer.arrays = arrays
        lexer.substituted = substituted
        lexer.budget = budget
        return lexer
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
}

/// The commands one script's loops may make, all loops together (nested loops multiply): past
/// `limit`, the script is refused rather than read for minutes.
final class LoopBudget {
    static let limit = 100_000
    var commands = 0
}
