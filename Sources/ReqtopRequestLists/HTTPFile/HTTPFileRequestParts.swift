import FoundationEssentials

/// The request of a `.http` block, part by part: request line, target continuations, header
/// fields, body (inline, `< file`, multipart), and the file variables that may follow a body.
extension HTTPFileParseState {
    func checkTemplate(_ text: String, line: Int, column: Int) throws(RequestListError) {
        do {
            _ = try Template.parse(text)
        } catch {
            throw self.error(error.message, line: line, column: column + error.offset)
        }
    }

    mutating func requestLine(_ line: TextLine, spec: inout RequestSpec) throws(RequestListError) {
        let parsed: RequestLine
        do {
            parsed = try RequestLine.parse(line)
        } catch {
            throw self.error(error.message, line: index, column: error.column)
        }
        try checkTemplate(parsed.url, line: index, column: parsed.urlColumn)
        if let warning = parsed.warning {
            warnings.append(RequestListWarning(location: location(line: index, column: warning.column), message: warning.message))
        }
        spec.method = parsed.method
        spec.url = parsed.url
        let methodColumn = line.leadingWhitespaceCount
        spec.location = location(line: index, column: methodColumn)
    }

    /// Lines that continue the request target: `?query` and `&more` lines, and indented lines
    /// (`/path`, a path segment); line breaks and indentation are not sent.
    mutating func targetContinuations(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count {
            let line = lines[index]
            let trimmedLine = line.trimmed
            guard !trimmedLine.isEmpty,
                  trimmedLine.first == UInt8(ascii: "?") || trimmedLine.first == UInt8(ascii: "&")
                    || (line.isIndented && !trimmedLine.contains(UInt8(ascii: ":"), UInt8(ascii: " "))),
                  !Self.isComment(trimmedLine), !trimmedLine.hasPrefix("/*") else { return }
            let trimmed = trimmedLine.string
            let column = line.leadingWhitespaceCount
            try checkTemplate(trimmed, line: index, column: column)
            if let blank = Self.firstBlankOutsideTemplates(trimmed) {
                // As on the request line: said, and sent percent-encoded (`{{ spaced }}` names a variable).
                warnings.append(RequestListWarning(location: location(line: index, column: column + blank),
                                                   message: "the URL goes on after a space: it is sent with its blanks percent-encoded (%20)"))
            }
            let inQuery = spec.url.containsBytes("?")
            let joins = trimmed.hasPrefix("/") || trimmed.hasPrefix("?") || trimmed.hasPrefix("&") || trimmed.hasPrefix("#")
            spec.url += joins || inQuery ? trimmed : "/" + trimmed
            index += 1
        }
    }

    mutating func headers(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmed
            if trimmed.isEmpty { index += 1; return }
            if trimmed.first == UInt8(ascii: "<") || Self.isHandler(trimmed) { return }
            if Self.isRecordedResponse(line) { return } // no blank line before it: the body step skips it
            let column = line.leadingWhitespaceCount
            if Self.isComment(trimmed) { index += 1; continue }
            if line.isIndented, let last = spec.headers.indices.last {
                // An indented line continues the previous header's value.
                let text = trimmed.string
                try checkTemplate(text, line: index, column: column)
                spec.headers[last].value += " " + text
                index += 1
                continue
            }
            if trimmed.hasPrefix("/*") { try blockComment(); continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw error("expected a header 'Name: value' (or a blank line before the body)", line: index, column: column)
            }
            let nameBytes = line[0..<colon].trimmed
            let name = nameBytes.string
            guard !name.isEmpty, !nameBytes.bytes.contains(UInt8(ascii: " ")) else {
                throw error("invalid header name \(quoting: name)", line: index, column: column)
            }
            let rawValue = line.dropFirst(colon + 1)
            let value = rawValue.trimmed.string
            try checkTemplate(name, line: index, column: column)
            if value.containsTemplateOpening {
                try checkTemplate(value, line: index, column: line.characterColumn(ofByte: colon) + 1 + rawValue.leadingWhitespaceCount)
            }
            spec.headers.append(HTTPHeader(name: name, value: value))
            index += 1
        }
    }

    mutating func body(spec: inout RequestSpec) throws(RequestListError) {
        var bodyLines: [(text: String, line: Int)] = []
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmed
            let column = line.leadingWhitespaceCount
            if trimmed.hasPrefix("<>") {
                warnings.append(RequestListWarning(
                    location: location(line: index, column: column),
                    message: "response comparison '<>' is ignored by reqtop"))
                index += 1
                continue
            }
            if Self.isHandler(trimmed) || trimmed == "{{" { break } // response handlers (or an httpyac script) follow the body
            if Self.isRecordedResponse(line) { recordedResponse(); break }
            if Self.isComment(trimmed) { index += 1; continue } // comments in bodies, as the JetBrains spec says
            let text = line.string
            try checkTemplate(text, line: index, column: 0)
            bodyLines.append((text, index))
            index += 1
        }
        // Blank lines and comments before the next separator belong to no body.
        func dropTrailingBlankLines() {
            while let last = bodyLines.last.map({ $0.text.trimmingWhitespace() }), last.isEmpty || Self.isComment(last) {
                bodyLines.removeLast()
            }
        }
        dropTrailingBlankLines()
        try trailingFileVariables(of: &bodyLines)
        dropTrailingBlankLines()
        // One removal, not one per line: 80,000 leading blank lines were quadratic.
        bodyLines.removeFirst(bodyLines.firstIndex { !$0.text.trimmingWhitespace().isEmpty } ?? bodyLines.count)
        guard let first = bodyLines.first else { return }
        if bodyLines.count == 1, let reference = Self.fileReference(first.text.trimmingWhitespace()), !reference.substitutes {
            try fileBody(first.text, line: first.line, spec: &spec)
            return
        }
        guard bodyLines.contains(where: { Self.fileReference($0.text.trimmingWhitespace()) != nil }) else {
            spec.body = .text(Self.joinBody(bodyLines.map(\.text), contentType: spec.header(named: "Content-Type")))
            return
        }
        // Text with `< file` / `<@ file` lines: a multipart body, or one `<@` file.
        var parts: [BodyPart] = []
        var text: [String] = []
        for (line, number) in bodyLines {
            guard let reference = Self.fileReference(line.trimmingWhitespace()) else {
                text.append(line)
                continue
            }
            if !text.isEmpty { parts.append(.text(text.joined(separator: "\n"))) }
            text = []
            try checkBodyFile(reference.path, line: number, column: line.leadingWhitespaceCount)
            parts.append(.file(path: reference.path, resolvedAgainst: directory, substitutesVariables: reference.substitutes))
        }
        if !text.isEmpty { parts.append(.text(text.joined(separator: "\n"))) }
        spec.body = .parts(parts)
    }

    /// Body lines as sent. A form (`application/x-www-form-urlencoded`) may be written one field per
    /// line: lines starting with `&` continue the previous one, as in REST Client.
    static func joinBody(_ lines: [String], contentType: String?) -> String {
        let isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        guard isForm else { return lines.joined(separator: "\n") }
        var out = ""
        for (offset, line) in lines.enumerated() {
            let unindented = line.drop { $0 == " " || $0 == "\t" }
            if unindented.hasPrefix("&") { out += unindented } else { out += (offset == 0 ? "" : "\n") + line }
        }
        return out
    }

    /// `@name = value` lines after a blank line at the end of a body define file variables for the
    /// requests below (Visual Studio writes them there), so they are taken out of the body.
    mutating func trailingFileVariables(of bodyLines: inout [(text: String, line: Int)]) throws(RequestListError) {
        var start = bodyLines.endIndex
        while start > bodyLines.startIndex, Self.isFileVariable(bodyLines[start - 1].text.trimmingWhitespace()) { start -= 1 }
        guard start < bodyLines.endIndex, start == bodyLines.startIndex || bodyLines[start - 1].text.trimmingWhitespace().isEmpty
        else { return }
        let resume = index
        for (text, line) in bodyLines[start...] {
            index = line
            try fileVariable(line: text.trimmingWhitespace(), column: text.leadingWhitespaceCount)
        }
        index = resume
        bodyLines.removeSubrange(start...)
    }

    /// `@name = value` with a valid name.
    static func isFileVariable(_ trimmed: String) -> Bool {
        guard trimmed.hasPrefix("@"), let eq = trimmed.firstIndex(of: "=") else { return false }
        let name = trimmed[trimmed.index(after: trimmed.startIndex)..<eq].trimmingWhitespaceSubstring()
        return !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) }
    }

    func checkBodyFile(_ file: String, line: Int, column: Int) throws(RequestListError) {
        guard checkBodyFiles, !file.containsTemplateOpening else { return }
        let full = RequestBody.absolutePath(file, relativeTo: directory)
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory else {
            throw error("body file \(quoting: file) not found (looked for \(full)); paths are relative to the .http file",
                        line: line, column: column)
        }
    }

    mutating func fileBody(_ line: String, line number: Int, spec: inout RequestSpec) throws(RequestListError) {
        let lt = line.firstIndex(of: "<")!
        let rest = line[line.index(after: lt)...]
        let file = rest.trimmingWhitespaceSubstring()
        let column = line.distance(from: line.startIndex, to: lt) + 1 + (rest.leadingWhitespaceCount)
        try checkBodyFile(file, line: number, column: column)
        spec.body = .file(path: file, resolvedAgainst: directory)
    }
}
