import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Bodies and response sections of Hurl entries.
extension HurlReader {
    /// A body as written from the current line, and the Content-Type Hurl gives its kind.
    enum WrittenBody {
        case json(String)
        case xml(String)
        case text(String, hint: String)
        case bytes(Data)
        case file(String)
    }

    mutating func requestBody() throws(RequestListError) -> (RequestBody, contentType: String?) {
        switch try writtenBody() {
        case .json(let text): return (.text(text), "application/json")
        case .xml(let text): return (.text(text), "application/xml")
        case .text(let text, let hint):
            switch hint {
            case "json": return (.text(text), "application/json")
            case "xml": return (.text(text), "application/xml")
            case "graphql": return (.text(Self.graphQL(text)), "application/json")
            default: return (.text(text), nil)
            }
        case .bytes(let data): return (.bytes(data), nil)
        case .file(let file): return (.file(path: file, resolvedAgainst: directory), nil)
        }
    }

    /// A GraphQL body as Hurl sends it: `{"query": …}`, with the `variables { … }` block written after the query.
    static func graphQL(_ text: String) -> String {
        var query = text
        var variables: String?
        if let range = text.lastByteRange(of: "\nvariables ") ?? text.lastByteRange(of: "\nvariables{") {
            let block = text[range.upperBound...].drop { $0 != "{" }
            if block.first == "{" {
                variables = block.trimmingWhitespaceAndNewlines()
                query = String(text[..<range.lowerBound]) + "\n"
            }
        }
        var out: [UInt8] = []
        JSONEscaping.appendQuoted(query, to: &out)
        return "{\"query\":" + String(decoding: out, as: UTF8.self) + (variables.map { ",\"variables\":" + $0 } ?? "") + "}"
    }

    /// Reads the body starting at the current line; the index ends after it.
    mutating func writtenBody() throws(RequestListError) -> WrittenBody {
        let number = index + 1
        let line = lines[index]
        let indent = line.prefix { $0 == " " || $0 == "\t" }.count
        let trimmed = line.trimmingWhitespace()
        if trimmed.hasPrefix("```") {
            let after = trimmed.dropFirst(3)
            if after.count >= 3, after.hasSuffix("```") { // ```one line```
                index += 1
                return .text(String(after.dropLast(3)), hint: "")
            }
            let hint = after.split(separator: ",").first.map { $0.trimmingWhitespace() } ?? ""
            var content: [String] = []
            index += 1
            while index < lines.count {
                let current = lines[index]
                index += 1
                if current.trimmingWhitespace() == "```" {
                    return .text(content.map { $0 + "\n" }.joined(), hint: hint)
                }
                content.append(current)
            }
            throw error("the ``` multiline string is not closed", line: number, column: indent + 1)
        }
        var joined = line
        if trimmed.hasPrefix("base64,") || trimmed.hasPrefix("hex,") {
            // Encoded bytes may go on over several lines, up to the ';'.
            var last = index
            while !joined.containsBytes(";"), last + 1 < lines.count {
                last += 1
                joined += lines[last]
            }
            if joined.containsBytes(";") { index = last }
        }
        var reader = HurlLine(joined, number: number)
        reader.skipSpaces()
        do throws(HurlLine.Failure) {
            if reader.peek == "`" {
                let text = try reader.backtickString()
                try reader.expectLineEnd()
                index += 1
                return .text(text, hint: "")
            }
            if let data = try reader.encodedBytes() {
                try reader.expectLineEnd()
                index += 1
                return .bytes(data)
            }
            if reader.eat("file,") {
                guard let semicolon = reader.chars[reader.i...].firstIndex(of: ";") else { throw reader.fail("a file body is written file,PATH;") }
                let file = String(reader.chars[reader.i..<semicolon]).trimmingWhitespace()
                reader.i = semicolon + 1
                try reader.expectLineEnd()
                index += 1
                return .file(file)
            }
        } catch {
            throw self.error(error, line: number)
        }
        if reader.peek == "<" { return .xml(try xmlBody()) }
        if Self.isJSONScalar(trimmed) {
            index += 1
            return .json(trimmed)
        }
        return .json(try jsonBody())
    }

    /// A JSON value from the current line: up to the bracket that closes the first one (strings and
    /// `{{templates}}` skipped), over as many lines as it takes.
    mutating func jsonBody() throws(RequestListError) -> String {
        let startLine = index
        var depth = 0
        var inString = false
        var escaped = false
        var collected = ""
        var lineIndex = index
        while lineIndex < lines.count {
            let chars = Array(lines[lineIndex])
            var i = lineIndex == startLine ? (chars.firstIndex { $0 != " " && $0 != "\t" } ?? 0) : 0
            let from = i
            while i < chars.count {
                let c = chars[i]
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                } else if c == "\"" {
                    inString = true
                } else if c == "{" || c == "[" {
                    depth += 1
                } else if c == "}" || c == "]" {
                    depth -= 1
                    if depth == 0 {
                        collected += String(chars[from...i])
                        var rest = HurlLine(String(chars[(i + 1)...]), number: lineIndex + 1)
                        guard rest.atLineEnd() else {
                            throw error("unexpected text after the JSON body", line: lineIndex + 1, column: i + 2 + rest.i)
                        }
                        index = lineIndex + 1
                        return collected
                    }
                }
                i += 1
            }
            collected += String(chars[from...]) + "\n"
            lineIndex += 1
        }
        throw error("the JSON body is not closed (a '{' or '[' without its match)", line: startLine + 1,
                    column: (Array(lines[startLine]).firstIndex { $0 != " " && $0 != "\t" } ?? 0) + 1)
    }

    /// An XML document from the current line up to the end of its root element.
    mutating func xmlBody() throws(RequestListError) -> String {
        let startLine = index
        var text = ""
        var root: String?
        var lineIndex = index
        while lineIndex < lines.count {
            let line = lineIndex == startLine ? lines[lineIndex].trimmingWhitespace() : lines[lineIndex]
            text += (lineIndex == startLine ? "" : "\n") + line
            lineIndex += 1
            if root == nil, let name = Self.rootElement(text) { root = name }
            if let root, Self.closes(text, root: root) {
                index = lineIndex
                return text
            }
        }
        throw error("the XML body's root element is not closed", line: startLine + 1, column: 1)
    }

    /// The name of the first element that is not a declaration, comment or processing instruction.
    static func rootElement(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                guard let close = after.firstIndex(of: ">") else { return nil }
                rest = after[after.index(after: close)...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    static func closes(_ text: String, root: String) -> Bool {
        if text.containsBytes("</\(root)>") { return true }
        // <root … />
        guard let start = text.byteRange(of: "<\(root)"), let close = text[start.upperBound...].firstIndex(of: ">") else { return false }
        return text[text.index(before: close)] == "/"
    }

    // MARK: - Response

    /// The status line, header lines, `[Captures]`, `[Asserts]` and body of an entry's response, and
    /// the refusal of the first part reqtop does not do (the rest of the section is then skipped).
    mutating func responseChecks() throws(RequestListError) -> (ResponseChecks, refusal: RequestListError?) {
        var checks = ResponseChecks()
        let number = index + 1
        let statusText = lines[index].trimmingWhitespace()
        let statusColumn = (lines[index].prefix { $0 == " " || $0 == "\t" }.count) + 1
        let parts = statusText.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let versionPart = parts.first.map(String.init) ?? ""
        var version: String?
        if versionPart.hasPrefix("HTTP/") {
            let written = String(versionPart.dropFirst(5))
            guard ["1.0", "1.1", "2", "3", "*"].contains(written) else {
                throw error("HTTP/\(written) is not a version Hurl knows (HTTP/1.0, HTTP/1.1, HTTP/2, HTTP/3, HTTP/*)", line: number, column: statusColumn)
            }
            version = written == "*" ? nil : written
        } else if versionPart != "HTTP" {
            throw error("expected a status line (HTTP 200, HTTP/1.1 200, HTTP *)", line: number, column: statusColumn)
        }
        var status: Int?
        let statusPart = parts.count > 1 ? String(parts[1]) : ""
        if statusPart != "*" {
            guard let code = Int(statusPart), (100...999).contains(code) else {
                throw error("expected a status after \(versionPart) (HTTP 200, HTTP *)", line: number, column: statusColumn + versionPart.count + 1)
            }
            status = code
        }
        if parts.count > 2, !parts[2].hasPrefix("#") {
            throw error("unexpected text after the status", line: number, column: statusColumn)
        }
        checks.statusLine = .init(version: version, status: status, text: parts.prefix(2).joined(separator: " "),
                                  location: location(line: number, column: statusColumn))
        index += 1

        var section: HurlSection?
        while index < lines.count {
            let text = lines[index]
            let lineNumber = index + 1
            if Self.isSkippable(text) { index += 1; continue }
            if Self.requestLine(text) != nil, Self.requestLineLooksLikeURL(text) { break }
            if let next = HurlSection(line: text) {
                guard next.isResponseSection else {
                    throw error("[\(next.rawValue)] belongs to a request, not to a response", line: lineNumber, column: 1)
                }
                section = next
                index += 1
                continue
            }
            if Self.startsBody(text) {
                let bodyLocation = location(line: lineNumber, column: 1)
                switch try writtenBody() {
                case .json(let json): checks.body = .init(expected: .json(json), location: bodyLocation)
                case .xml(let xml): checks.body = .init(expected: .text(xml), location: bodyLocation)
                case .text(let text, _): checks.body = .init(expected: .text(text), location: bodyLocation)
                case .bytes(let data): checks.body = .init(expected: .bytes(data), location: bodyLocation)
                case .file:
                    let refusal = error("a file body in a response is not compared by reqtop: this entry is not sent", line: lineNumber, column: 1)
                    skipResponse()
                    return (checks, refusal)
                }
                continue
            }
            var reader = HurlLine(text, number: lineNumber)
            do throws(HurlLine.Failure) {
                switch section {
                case nil:
                    let pair = try reader.keyValue()
                    checks.headers.append(.init(name: pair.key, value: pair.value, location: location(line: lineNumber, column: 1)))
                case .captures?:
                    reader.skipSpaces()
                    let column = reader.column
                    let name = try reader.captureName()
                    let query = try reader.query()
                    let filters = try reader.filters()
                    try reader.expectLineEnd()
                    checks.captures.append(.init(name: name, query: query, filters: filters, text: Self.written(reader, from: column),
                                                 location: location(line: lineNumber, column: column)))
                case .asserts?:
                    reader.skipSpaces()
                    let column = reader.column
                    let query = try reader.query()
                    let filters = try reader.filters()
                    let predicate = try reader.predicate()
                    checks.asserts.append(.init(query: query, filters: filters, predicate: predicate, text: Self.written(reader, from: column),
                                                location: location(line: lineNumber, column: column)))
                default: break
                }
            } catch {
                guard error.unsupported else { throw self.error(error, line: lineNumber) }
                let refusal = self.error(error, line: lineNumber)
                skipResponse()
                return (checks, refusal)
            }
            index += 1
        }
        return (checks, nil)
    }

    /// A capture's or assert's text as written (from `column` to where the reader stopped: its comment left out).
    static func written(_ reader: HurlLine, from column: Int) -> String {
        String(reader.chars[(column - 1)..<min(reader.i, reader.chars.count)]).trimmingWhitespace()
    }
}

extension HurlLine {
    /// The `name:` of a capture.
    mutating func captureName() throws(Failure) -> String {
        skipSpaces()
        var name = ""
        if peek == "\"" {
            name = try quoted()
        } else {
            while let c = peek, c != ":", c != " ", c != "\t" {
                i += 1
                name.append(c)
            }
        }
        skipSpaces()
        guard !name.isEmpty, eat(":") else { throw fail("a capture is written NAME: QUERY (e.g. token: jsonpath \"$.token\")") }
        return name
    }
}
