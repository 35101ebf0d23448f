import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One `.bru` file read into its blocks (Bruno's markup): `name {` at the start of a line, its
/// lines, `}` at the start of a line. A dictionary block holds `key: value` lines (`~key` is
/// disabled; a value may be a `'''` block over several lines); a text block (a body, a script,
/// `tests`, `docs`) holds its lines with their two-space indent taken off.
struct BruFile {
    struct Entry {
        var key: String
        var value: String
        var enabled: Bool
        var line: Int
    }

    struct Block {
        var name: String
        var line: Int
        /// The lines inside, indent removed (for text blocks).
        var text: String
        var entries: [Entry]
        /// `vars:secret [ a, b ]`: a list block.
        var list: [String]
    }

    var blocks: [Block] = []
    let path: String

    func block(_ name: String) -> Block? { blocks.first { $0.name == name } }
    func blocks(prefix: String) -> [Block] { blocks.filter { $0.name.hasPrefix(prefix) } }

    init(text: String, path: String) throws(RequestListError) {
        self.path = path
        let lines = text.splitLines().map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { index += 1; continue }
            let number = index + 1
            if trimmed.hasSuffix("[") || (trimmed.containsBytes(" [") && trimmed.hasSuffix("]")) {
                // vars:secret [ a, b ] (on one line or several)
                let name = String(trimmed.prefix { $0 != " " && $0 != "[" })
                var body = String(trimmed.drop { $0 != "[" }.dropFirst())
                while !body.containsBytes("]"), index + 1 < lines.count {
                    index += 1
                    body += "," + lines[index]
                }
                guard let close = body.firstIndex(of: "]") else {
                    throw RequestListError(file: path, line: number, column: 1, message: "the list \(name) [ … ] is not closed", lineText: line)
                }
                let items = body[..<close].split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                blocks.append(Block(name: name, line: number, text: "", entries: [], list: items))
                index += 1
                continue
            }
            guard trimmed.hasSuffix("{"), !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                throw RequestListError(file: path, line: number, column: 1,
                                       message: "expected a block (name {), e.g. meta {, get {, headers {, body:json {", lineText: line)
            }
            let name = String(trimmed.dropLast()).trimmingWhitespace()
            var inner: [String] = []
            index += 1
            var closed = false
            while index < lines.count {
                if lines[index].hasPrefix("}") { closed = true; index += 1; break }
                inner.append(lines[index])
                index += 1
            }
            guard closed else {
                throw RequestListError(file: path, line: number, column: 1, message: "the block \(name) { is not closed (a '}' at the start of a line)", lineText: line)
            }
            let text = inner.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0.hasPrefix("\t") ? String($0.dropFirst()) : $0 }.joined(separator: "\n")
            blocks.append(Block(name: name, line: number, text: text, entries: Self.isTextBlock(name) ? [] : try Self.entries(inner, firstLine: number + 1, path: path),
                                list: []))
        }
    }

    static func isTextBlock(_ name: String) -> Bool {
        name.hasPrefix("body:") && !["body:form-urlencoded", "body:multipart-form"].contains(name) || name.hasPrefix("script:") || name == "tests" || name == "docs"
            || name == "body" || name == "body:graphql:vars"
    }

    static func entries(_ lines: [String], firstLine: Int, path: String) throws(RequestListError) -> [Entry] {
        var out: [Entry] = []
        var i = 0
        while i < lines.count {
            let raw = lines[i]
            let number = firstLine + i
            i += 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("@") {
                // An annotation of the next entry (@description(''' text ''')): skipped, with a ''' block it opens.
                var quotes = line.components(separatedBy: "'''").count - 1
                while quotes % 2 == 1, i < lines.count {
                    quotes += lines[i].components(separatedBy: "'''").count - 1
                    i += 1
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                let column = raw.prefix { $0 == " " || $0 == "\t" }.count + 1
                throw RequestListError(file: path, line: number, column: column, message: "expected 'key: value'", lineText: raw)
            }
            var key = String(line[..<colon]).trimmingWhitespace()
            var value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            let enabled = !key.hasPrefix("~")
            if !enabled { key.removeFirst() }
            if value.hasPrefix("["), !value.containsBytes("]") {
                // A list over several lines (meta's `tags: [`, an item a line, `]`): its items, comma-separated.
                var items = [String(value.dropFirst()).trimmingWhitespace()].filter { !$0.isEmpty }
                var closed = false
                while i < lines.count {
                    let item = lines[i].trimmingWhitespace()
                    i += 1
                    if item.hasPrefix("]") { closed = true; break }
                    if !item.isEmpty { items.append(item.hasSuffix(",") ? String(item.dropLast()) : item) }
                }
                guard closed else {
                    throw RequestListError(file: path, line: number, column: raw.prefix { $0 == " " || $0 == "\t" }.count + 1,
                                           message: "the list \(key): [ … ] is not closed (a line with ']')", lineText: raw)
                }
                value = items.joined(separator: ", ")
            } else if value.hasPrefix("'''") {
                // '''
                //   multi-line
                // ''' (possibly followed by @contentType(…))
                var rest = String(value.dropFirst(3))
                if let end = rest.byteRange(of: "'''") {
                    value = String(rest[..<end.lowerBound])
                } else {
                    var collected: [String] = rest.isEmpty ? [] : [rest]
                    while i < lines.count {
                        let next = lines[i]
                        i += 1
                        if let end = next.byteRange(of: "'''") {
                            let before = String(next[..<end.lowerBound])
                            if !before.trimmingWhitespace().isEmpty { collected.append(before) }
                            rest = ""
                            break
                        }
                        collected.append(next)
                    }
                    let indent = collected.filter { !$0.trimmingWhitespace().isEmpty }
                        .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    value = collected.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
                }
            }
            out.append(Entry(key: key, value: value, enabled: enabled, line: number))
        }
        return out
    }
}
