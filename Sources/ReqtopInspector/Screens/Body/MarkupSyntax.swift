import ReqtopTerminalUI

/// Colours for rows of the indented HTML/XML view: tag names, quoted attribute values, comments.
/// Rows that do not start with `<` (text, script lines, a note above the body) are left plain.
enum MarkupSyntax {
    static let tag = Style().fg(.cyan)
    static let value = Style().fg(.green)
    static let comment = Style().dim

    static func spans(_ row: String) -> [Span] {
        let chars = Array(row)
        var i = 0
        while i < chars.count, chars[i] == " " { i += 1 }
        guard i < chars.count, chars[i] == "<" else { return [] }
        if row.dropFirst(i).hasPrefix("<!--") { return [Span(i..<chars.count, comment)] }
        var spans: [Span] = []
        var inTag = false
        while i < chars.count {
            let c = chars[i]
            if c == "<" {
                var end = i + 1
                while end < chars.count, !chars[end].isWhitespace, chars[end] != ">" { end += 1 }
                spans.append(Span(i..<end, tag))
                inTag = true
                i = end
            } else if inTag, c == "\"" || c == "'" {
                var end = i + 1
                while end < chars.count, chars[end] != c { end += 1 }
                end = min(end + 1, chars.count)
                spans.append(Span(i..<end, value))
                i = end
            } else if inTag, c == ">" || (c == "/" && i + 1 < chars.count && chars[i + 1] == ">") {
                let end = c == ">" ? i + 1 : i + 2
                spans.append(Span(i..<end, tag))
                inTag = false
                i = end
            } else {
                i += 1
            }
        }
        return spans
    }
}
