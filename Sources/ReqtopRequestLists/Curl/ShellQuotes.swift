/// Quoted words as bash reads them: `'…'`, `"…"` (with its escapes and expansions), `$'…'`
/// (ANSI-C escapes).
extension ShellWords {

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
