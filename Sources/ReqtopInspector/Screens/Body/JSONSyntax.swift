import ReqtopTerminalUI

/// Colours for rows of pretty-printed JSON: keys, strings, numbers and `true`/`false`/`null`.
/// A row that does not start like JSON (a note above the body) is left plain; a string cut by
/// wrapping is coloured to the row's end.
enum JSONSyntax {
    static let key = Style().fg(.cyan)
    static let string = Style().fg(.green)
    static let number = Style().fg(.yellow)
    static let literal = Style().fg(.magenta)

    static func spans(_ row: String) -> [Span] {
        let chars = Array(row)
        var i = 0
        while i < chars.count, chars[i] == " " { i += 1 }
        guard i < chars.count else { return [] }
        let startsLikeJSON = "{}[]\"-0123456789".contains(chars[i])
            || ["true", "false", "null"].contains { String(chars[i...]).hasPrefix($0) && [$0, $0 + ","].contains(String(chars[i...])) }
        guard startsLikeJSON else { return [] }
        var spans: [Span] = []
        while i < chars.count {
            let c = chars[i]
            if c == "\"" {
                var end = i + 1
                while end < chars.count, chars[end] != "\"" { end += chars[end] == "\\" ? 2 : 1 }
                end = min(end + 1, chars.count)
                var after = end
                while after < chars.count, chars[after] == " " { after += 1 }
                spans.append(Span(i..<end, after < chars.count && chars[after] == ":" ? key : string))
                i = end
            } else if c == "-" || c.isNumber {
                var end = i + 1
                while end < chars.count, chars[end].isNumber || ".eE+-".contains(chars[end]) { end += 1 }
                spans.append(Span(i..<end, number))
                i = end
            } else if let word = ["true", "false", "null"].first(where: { chars[i...].starts(with: $0) }) {
                spans.append(Span(i..<i + word.count, literal))
                i += word.count
            } else {
                i += 1
            }
        }
        return spans
    }
}
