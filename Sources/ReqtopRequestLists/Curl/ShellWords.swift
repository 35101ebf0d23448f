/// Splits shell command lines into words the way bash does for what "Copy as cURL" produces:
/// whitespace, `'…'`, `"…"` (with `\` escapes), `$'…'` (ANSI-C escapes), backslash escapes,
/// backslash-newline continuations, `#` comments, and `;`, `&&`, `||`, `|`, `&` and newlines
/// between commands. Nothing is expanded: `$HOME` stays `$HOME`.
struct ShellWords {
    struct Word: Hashable {
        var text: String
        /// 1-based line and column where the word starts.
        var line: Int
        var column: Int
    }

    struct Unbalanced: Error {
        var message: String
        var line: Int
        var column: Int
    }

    private let chars: [Character]
    private var index = 0
    private var line = 1
    private var column = 1

    /// The commands in `text`, each a list of words; empty commands are left out.
    static func split(_ text: String) throws(Unbalanced) -> [[Word]] {
        var lexer = ShellWords(chars: Array(text))
        return try lexer.run()
    }

    private init(chars: [Character]) { self.chars = chars }

    private var current: Character? { index < chars.count ? chars[index] : nil }
    private func peek(_ offset: Int) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }

    private mutating func advance() {
        if chars[index] == "\n" || chars[index] == "\r\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    private static func isNewline(_ c: Character) -> Bool { c == "\n" || c == "\r\n" }

    private mutating func run() throws(Unbalanced) -> [[Word]] {
        var commands: [[Word]] = []
        var words: [Word] = []
        var word: Word?
        func finishWord() {
            if let w = word { words.append(w); word = nil }
        }
        func finishCommand() {
            finishWord()
            if !words.isEmpty { commands.append(words); words = [] }
        }
        while let c = current {
            if c == "\\", let next = peek(1), Self.isNewline(next) {
                advance(); advance()
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                finishWord(); advance(); continue
            }
            if Self.isNewline(c) || c == ";" || c == "|" || c == "&" {
                finishCommand(); advance(); continue
            }
            if c == "#", word == nil {
                while let d = current, !Self.isNewline(d) { advance() }
                continue
            }
            if word == nil { word = Word(text: "", line: line, column: column) }
            switch c {
            case "'":
                word!.text += try singleQuoted()
            case "\"":
                word!.text += try doubleQuoted()
            case "$" where peek(1) == "'":
                word!.text += try ansiQuoted()
            case "\\":
                advance()
                if let escaped = current { word!.text.append(escaped); advance() }
            default:
                word!.text.append(c)
                advance()
            }
        }
        finishCommand()
        return commands
    }

    private mutating func singleQuoted() throws(Unbalanced) -> String {
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

    private mutating func doubleQuoted() throws(Unbalanced) -> String {
        let (startLine, startColumn) = (line, column)
        advance()
        var out = ""
        while let c = current {
            advance()
            if c == "\"" { return out }
            if c == "\\", let next = current {
                if Self.isNewline(next) { advance(); continue }
                if next == "$" || next == "`" || next == "\"" || next == "\\" {
                    out.append(next)
                    advance()
                    continue
                }
            }
            out.append(c)
        }
        throw Unbalanced(message: "unbalanced double quote: add the closing \"", line: startLine, column: startColumn)
    }

    private mutating func ansiQuoted() throws(Unbalanced) -> String {
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

    private mutating func scalar(hexDigits: Int) -> Character {
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
