/// How much of a value or a line an error or warning quotes: at most one line, at most
/// `Excerpt.limit` characters, a cut marked with `…` (a minified HAR is one line of megabytes).
enum Excerpt {
    static let limit = 200

    /// `text`'s first line, cut to `limit` characters with `…` where it was cut.
    static func of(_ text: some StringProtocol) -> String {
        var line = Substring(text)
        var cut = false
        if let end = line.firstIndex(where: \.isNewline) {
            line = line[..<end]
            cut = true
        }
        if line.count > limit {
            line = line.prefix(limit - 1)
            cut = true
        }
        return cut ? line + "…" : String(line)
    }

    /// A window of at most `limit` characters of `line` around 1-based `column`, with the caret's
    /// column inside the window: the line whole when it is short enough.
    static func window(of line: String, column: Int) -> (text: String, column: Int) {
        let characters = Array(line)
        guard characters.count > limit else { return (line, column) }
        let wanted = min(max(column - 1, 0), characters.count)
        var start = max(0, min(wanted - limit / 2, characters.count - limit))
        var end = min(characters.count, start + limit)
        var prefix = "", suffix = ""
        if start > 0 { start += 1; prefix = "…" }
        if end < characters.count { end -= 1; suffix = "…" }
        return (prefix + String(characters[start..<end]) + suffix, wanted - start + prefix.count + 1)
    }
}
