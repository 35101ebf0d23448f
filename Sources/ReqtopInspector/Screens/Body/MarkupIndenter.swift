/// The indented view of an HTML or XML body: one tag per line, nested elements indented, short
/// `<b>text</b>` elements kept on one line, text trimmed. Lenient — it never fails, it only lays
/// out: unknown or unbalanced tags keep the current depth, HTML void elements (`<br>`, `<img>`)
/// and `/>` do not open a level, `<li>`/`<p>`/`<td>`… close their open sibling, and the contents
/// of `<script>`, `<style>`, `<pre>` and `<textarea>` keep their own lines. Only whitespace between
/// tokens changes; every character of the body stays (sanitized when drawn).
enum MarkupIndenter {
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                                            "param", "source", "track", "wbr", "!doctype"]
    static let rawTextElements: Set<String> = ["script", "style", "pre", "textarea"]
    /// Elements whose end tag HTML lets authors leave out: a new one closes an open one of the same name.
    static let selfClosingSiblings: Set<String> = ["li", "p", "td", "th", "tr", "option", "dt", "dd"]
    /// Text up to this long stays on the line of its element.
    static let inlineTextLimit = 80

    private enum Token {
        case open(name: String, text: String, selfClosing: Bool)
        case close(name: String, text: String)
        /// Comments, CDATA, doctype, processing instructions.
        case other(String)
        case text(String)
    }

    static func lines(_ source: String) -> [String] {
        let tokens = tokenize(Array(source.unicodeScalars))
        var lines: [String] = []
        var stack: [String] = []
        func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }
        var i = 0
        while i < tokens.count {
            switch tokens[i] {
            case .open(let name, let text, let selfClosing):
                if selfClosingSiblings.contains(name), stack.last == name { stack.removeLast() }
                if selfClosing || voidElements.contains(name) {
                    lines.append(indent(stack.count) + text)
                } else if rawTextElements.contains(name) {
                    lines.append(indent(stack.count) + text)
                    if i + 1 < tokens.count, case .text(let content) = tokens[i + 1] {
                        lines += reindented(content, depth: stack.count + 1, keepVerbatim: name == "pre" || name == "textarea")
                        i += 1
                    }
                    stack.append(name)
                } else if i + 2 < tokens.count, case .text(let content) = tokens[i + 1], case .close(let closing, let end) = tokens[i + 2],
                          closing == name, !content.containsBytes("\n"), content.count <= inlineTextLimit {
                    lines.append(indent(stack.count) + text + content.trimmed + end)
                    i += 2
                } else if i + 1 < tokens.count, case .close(let closing, let end) = tokens[i + 1], closing == name {
                    lines.append(indent(stack.count) + text + end)
                    i += 1
                } else {
                    lines.append(indent(stack.count) + text)
                    stack.append(name)
                }
            case .close(let name, let text):
                if let open = stack.lastIndex(of: name) { stack.removeSubrange(open...) }
                lines.append(indent(stack.count) + text)
            case .other(let text):
                lines += text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                    index == 0 ? indent(stack.count) + line : String(line)
                }
            case .text(let content):
                for line in content.split(separator: "\n") where !line.trimmed.isEmpty {
                    lines.append(indent(stack.count) + line.trimmed)
                }
            }
            i += 1
        }
        return lines
    }

    /// A raw-text element's content: `pre`/`textarea` as they are, script and style re-indented
    /// under their tag with their own relative indentation kept.
    private static func reindented(_ content: String, depth: Int, keepVerbatim: Bool) -> [String] {
        var lines = content.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.first?.trimmed.isEmpty == true { lines.removeFirst() }
        while lines.last?.trimmed.isEmpty == true { lines.removeLast() }
        if keepVerbatim { return lines }
        let common = lines.filter { !$0.trimmed.isEmpty }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        let prefix = String(repeating: "  ", count: depth)
        return lines.map { $0.trimmed.isEmpty ? "" : prefix + String($0.dropFirst(common)) }
    }

    private static func tokenize(_ s: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        var textStart = 0
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: s[range])
            return String(view)
        }
        func flushText(upTo end: Int) {
            if textStart < end { tokens.append(.text(string(textStart..<end))) }
        }
        func starts(with literal: String, at index: Int) -> Bool {
            var j = index
            for scalar in literal.unicodeScalars {
                guard j < s.count, s[j].properties.lowercaseMapping == String(scalar) || s[j] == scalar else { return false }
                j += 1
            }
            return true
        }
        func find(_ literal: String, from index: Int) -> Int? {
            var j = index
            while j < s.count {
                if starts(with: literal, at: j) { return j + literal.unicodeScalars.count }
                j += 1
            }
            return nil
        }
        var rawTextEnd: String?
        while i < s.count {
            if let closing = rawTextEnd {
                // Inside <script>/<style>/…: everything up to the end tag is text.
                var j = i
                while j < s.count, !starts(with: closing, at: j) { j += 1 }
                flushText(upTo: j)
                rawTextEnd = nil
                i = j
                textStart = j
                continue
            }
            guard s[i] == "<", i + 1 < s.count else { i += 1; continue }
            let next = s[i + 1]
            var end: Int?
            var token: Token?
            if starts(with: "<!--", at: i) {
                end = find("-->", from: i + 4) ?? s.count
                token = .other(string(i..<end!))
            } else if starts(with: "<![cdata[", at: i) {
                end = find("]]>", from: i + 9) ?? s.count
                token = .other(string(i..<end!))
            } else if next == "?" {
                end = find("?>", from: i + 2) ?? s.count
                token = .other(string(i..<end!))
            } else if next == "!" {
                end = tagEnd(s, from: i + 2)
                let text = string(i..<end!)
                token = starts(with: "<!doctype", at: i) ? .open(name: "!doctype", text: text, selfClosing: true) : .other(text)
            } else if next == "/" || next.properties.isAlphabetic {
                let nameStart = next == "/" ? i + 2 : i + 1
                var nameEnd = nameStart
                while nameEnd < s.count, s[nameEnd] != ">", s[nameEnd] != "/", !s[nameEnd].properties.isWhitespace { nameEnd += 1 }
                end = tagEnd(s, from: nameEnd)
                let name = string(nameStart..<nameEnd).lowercased()
                let text = string(i..<end!)
                if next == "/" {
                    token = .close(name: name, text: text)
                } else {
                    token = .open(name: name, text: text, selfClosing: text.hasSuffix("/>"))
                    if rawTextElements.contains(name), !text.hasSuffix("/>") { rawTextEnd = "</" + name }
                }
            }
            guard let end, let token else { i += 1; continue }
            flushText(upTo: i)
            tokens.append(token)
            i = end
            textStart = end
        }
        flushText(upTo: s.count)
        return tokens
    }

    /// The index after the `>` that ends a tag, skipping quoted attribute values.
    private static func tagEnd(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var quote: Unicode.Scalar?
        var j = start
        while j < s.count {
            let c = s[j]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return j + 1
            }
            j += 1
        }
        return s.count
    }

    /// Does `bytes` (the start of a body) look like HTML or XML?
    static func looksLikeMarkup(_ prefix: String) -> Bool {
        let start = prefix.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(20).lowercased()
        return start.hasPrefix("<?xml") || start.hasPrefix("<!doctype") || start.hasPrefix("<html") || start.hasPrefix("<svg")
            || start.hasPrefix("<rss") || start.hasPrefix("<feed")
    }
}

fileprivate extension StringProtocol {
    var trimmed: String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}
