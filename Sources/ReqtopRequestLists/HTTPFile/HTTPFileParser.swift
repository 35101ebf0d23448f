import Foundation

/// Parses JetBrains HTTP Client / VS Code REST Client `.http` files into a `RequestList`.
///
/// Syntax (the JetBrains spec, with REST Client's additions): `###` separators (optionally followed
/// by a name), `# @name x`, `#` and `//` comments (in bodies too), `@var = value`,
/// `METHOD URL [HTTP/1.1]` with indented continuation lines (`/path`, `?query`, `&more`),
/// origin-form targets (`GET /api` + `Host:`), headers (indented lines continue a value) until a
/// blank line, then the body until the next separator (form lines starting with `&` join the line
/// before; `@name = value` lines after a blank line at its end are file variables; `< ./file` for a file body, `<@ ./file` with
/// variables substituted). Scripts — `< {% … %}` before the request, `> {% … %}` or `> file.js`
/// after it, `>> file` — are skipped with a warning and kept in the spec's `scripts`. httpyac's
/// `/* … */` comments (before a request and among its headers) are comments; its recorded responses
/// (a line `HTTP/1.1 200 …` after the request, to the next separator) are skipped with a warning.
public enum HTTPFileParser {
    /// A `.http` text of at least this many bytes gives a list that keeps where each request is
    /// written, not the parsed requests (see `RequestSpecs`): about 20,000 short requests.
    static let writtenRequestsThreshold = 1 << 20

    /// Parses `text`, which was read from `path` (used for messages and for `< file` bodies).
    /// - Parameter checkBodyFiles: report `< file` bodies that do not exist (default true).
    public static func parse(text: String, path: String, checkBodyFiles: Bool = true) throws(RequestListError) -> RequestList {
        try parse(text: text, path: path, checkBodyFiles: checkBodyFiles,
                  keepingRequests: text.utf8.count < writtenRequestsThreshold || text.utf8.count > UInt32.max)
    }

    /// `keepingRequests` false: the whole text is checked as always, but the list keeps only where
    /// each request starts and parses it again when it is read.
    static func parse(text: String, path: String, checkBodyFiles: Bool = true, keepingRequests: Bool) throws(RequestListError) -> RequestList {
        // The parse looks at the text's bytes in place (`TextLine`); only what it keeps becomes a `String`.
        var bytes = text
        let parsed = bytes.withUTF8 { buffer -> Result<HTTPFileParseState.Parsed, RequestListError> in
            var state = HTTPFileParseState(path: path, checkBodyFiles: checkBodyFiles)
            state.keeps = keepingRequests ? .requests : .blockStarts
            do throws(RequestListError) {
                try state.run(buffer)
            } catch {
                return .failure(error)
            }
            return .success(state.parsed)
        }
        let state = try parsed.get()
        let specs = keepingRequests ? RequestSpecs(state.specs)
            : RequestSpecs(written: WrittenRequests(text: text, path: path, blocks: state.blocks, droppedNames: state.droppedNames,
                                                   names: state.requestNames, resolvesAsWritten: state.resolvesAsWritten))
        var list = RequestList(
            specs: specs, fileVariables: state.variables, sourcePath: path, format: .http,
            warnings: state.warnings, sourceText: text)
        list.fileScripts = state.fileScripts
        return list
    }

    /// The request of the block that starts at `block` (its first line: a `###` separator, or the
    /// file's first line), parsed again; `dropsName` when the first parse did not take the
    /// separator's name (it was taken).
    static func request(in buffer: UnsafeBufferPointer<UInt8>, block: WrittenRequests.Block, dropsName: Bool, path: String) -> RequestSpec? {
        var state = HTTPFileParseState(path: path, checkBodyFiles: false)
        state.keeps = .lastRequest
        state.lines = HTTPFileParseState.block(in: buffer, from: Int(block.byte)).lines
        state.firstLine = Int(block.line)
        state.dropsBlockName = dropsName
        do throws(RequestListError) {
            try state.parseRegion()
        } catch {
            return nil
        }
        return state.lastRequest.take()
    }
}

/// The line-by-line parse of one `.http` file, block by block (its lines are valid while the text's buffer is).
struct HTTPFileParseState {
    /// The lines of the block being parsed; `firstLine` is the file's line index of the first.
    var lines: [TextLine] = []
    var firstLine = 0
    let path: String
    /// The directory body files are relative to (found when a body names a file: a block parsed
    /// again would otherwise pay for a path operation each time).
    var directory: String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }
    let checkBodyFiles: Bool
    /// What the parse keeps of each request.
    enum Keeping {
        /// Every request, in `specs`.
        case requests
        /// Where each request's block starts (`blocks`), its name (`requestNames`) and whether it
        /// resolves as written (`resolvesAsWritten`): a long list's first parse.
        case blockStarts
        /// The request, in `lastRequest`: one block parsed again.
        case lastRequest
    }
    var keeps = Keeping.requests
    /// The byte where the block being parsed starts (for `blocks`).
    var blockStart = 0
    var specs: [RequestSpec] = []
    var blocks: [WrittenRequests.Block] = []
    /// Requests whose `### name` was not taken because another request had it.
    var droppedNames: Set<Int> = []
    /// Parsing one block again: its separator's name was dropped the first time.
    var dropsBlockName = false
    var lastRequest: RequestSpec?
    /// Each named request's index and name.
    var requestNames: [(index: Int, name: String)] = []
    /// Which requests resolve as written (`RequestResolver.resolvesAsWritten`).
    var resolvesAsWritten = BitSet()
    var requestCount = 0
    var variables: [FileVariable] = []
    var warnings: [RequestListWarning] = []
    /// Scripts in blocks without a request.
    var fileScripts: [SkippedScript] = []
    var index = 0
    private var namesSeen: [String: Int] = [:]
    /// Names already warned about as used again.
    private var namesRepeated: Set<String> = []

    /// What a parse keeps: no line of the text.
    struct Parsed {
        var specs: [RequestSpec]
        var requestNames: [(index: Int, name: String)]
        var resolvesAsWritten: BitSet
        var blocks: [WrittenRequests.Block]
        var droppedNames: Set<Int>
        var variables: [FileVariable]
        var warnings: [RequestListWarning]
        var fileScripts: [SkippedScript]
    }

    var parsed: Parsed {
        Parsed(specs: specs, requestNames: requestNames, resolvesAsWritten: resolvesAsWritten, blocks: blocks,
               droppedNames: droppedNames, variables: variables, warnings: warnings, fileScripts: fileScripts)
    }

    init(path: String, checkBodyFiles: Bool) {
        self.path = path
        self.checkBodyFiles = checkBodyFiles
    }

    /// A location on line `line` of the block (0-based, like `column`).
    func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: path, line: firstLine + line + 1, column: column + 1)
    }

    func error(_ message: String, line: Int, column: Int) -> RequestListError {
        RequestListError(file: path, line: firstLine + line + 1, column: column + 1, message: message, lineText: lines[line].string)
    }

    static func isSeparator(_ line: TextLine) -> Bool { line.trimmed.hasPrefix("###") }
    static func isComment(_ trimmed: String) -> Bool { trimmed.hasPrefix("#") || trimmed.hasPrefix("//") }
    static func isComment(_ trimmed: TextLine) -> Bool { trimmed.first == UInt8(ascii: "#") || trimmed.hasPrefix("//") }
    /// `> {% … %}`, `> file.js`, `> ./handlers/check` (the spec's `'>' required-whitespace file-path`:
    /// one word naming a file, with a `/` or a `.`), `>> file`: what follows a body, never part of it.
    /// A line of prose quoted in a body (`> see the docs`) is not one.
    static func isHandler(_ trimmed: TextLine) -> Bool {
        guard trimmed.first == UInt8(ascii: ">") else { return false }
        let rest = trimmed.dropFirst(1)
        let script = rest.dropFirst(rest.leadingWhitespaceCount)
        if rest.first == UInt8(ascii: ">") || script.hasPrefix("{%") || script.hasSuffix(".js") { return true }
        let path = script.string
        return rest.leadingWhitespaceCount > 0 && !path.isEmpty && !path.contains(where: \.isWhitespace)
            && (path.contains("/") || path.contains("."))
    }
    /// The offset (in characters) of the first space or tab of `text` that is not inside `{{…}}`.
    static func firstBlankOutsideTemplates(_ text: String) -> Int? {
        var inTemplate = false
        var previous: Character?
        for (offset, character) in text.enumerated() {
            if !inTemplate, character == " " || character == "\t" { return offset }
            if previous == "{", character == "{" { inTemplate = true }
            if previous == "}", character == "}" { inTemplate = false }
            previous = character
        }
        return nil
    }

    /// httpyac/kulala `import ./other.http` and `run #name` / `run ./other.http` lines: why they are skipped.
    static func importOrRun(_ trimmed: String) -> String? {
        let words = trimmed.split(separator: " ", maxSplits: 1)
        guard words.count == 2, let target = words.last.map(String.init), !target.contains("://") else { return nil }
        switch words[0] {
        case "import": return "\(quoting: trimmed) skipped: reqtop does not import other .http files (httpyac, kulala); run that file too"
        case "run": return "\(quoting: trimmed) skipped: reqtop does not run requests by reference (httpyac, kulala)"
        default: return nil
        }
    }

    /// `< path` or `<@ path`: a file's contents in a body.
    static func fileReference(_ trimmed: String) -> (path: String, substitutes: Bool)? {
        let substitutes = trimmed.hasPrefix("<@")
        guard trimmed.hasPrefix("<"), !trimmed.hasPrefix("<>") else { return nil }
        let rest = trimmed.dropFirst(substitutes ? 2 : 1)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        let path = rest.trimmingWhitespaceSubstring()
        return path.isEmpty ? nil : (path, substitutes)
    }

    /// Parses the text block by block: a block runs from a `###` separator (or the file's start) to
    /// the next one and holds at most one request.
    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) throws(RequestListError) {
        var position: Int? = 0
        while let start = position {
            let next = HTTPFileParseState.block(in: buffer, from: start, into: &lines)
            blockStart = start
            try parseRegion()
            firstLine += lines.count
            position = next
        }
        if blocks.capacity > blocks.count + blocks.count / 8 { // kept for the whole run: without the room it grew into
            var exact: [WrittenRequests.Block] = []
            exact.reserveCapacity(blocks.count)
            exact.append(contentsOf: blocks)
            blocks = exact
        }
    }

    /// Parses the block in `lines`: its separator line (which may name the request), then the request.
    mutating func parseRegion() throws(RequestListError) {
        index = 0
        var blockName: String?
        var dropped = false
        let trimmed = lines[0].trimmed
        if trimmed.hasPrefix("###") {
            // `### text` names the request (as the JetBrains client shows it) unless that name is
            // taken: then, like a `###…###` banner line, it is only a comment.
            let hashes = trimmed.bytes.prefix { $0 == UInt8(ascii: "#") }.count
            var name = trimmed.dropFirst(hashes).trimmed.string
            while name.hasSuffix("#") { name = String(name.dropLast()).trimmingWhitespace() }
            dropped = !name.isEmpty && (namesSeen[name] != nil || dropsBlockName) // namesSeen has every request's name
            blockName = name.isEmpty || dropped ? nil : name
            index += 1
        }
        let before = requestCount
        try parseBlock(name: blockName)
        if dropped, requestCount > before { droppedNames.insert(before) }
    }

    /// Parses from `index` up to the next separator (exclusive).
    mutating func parseBlock(name initialName: String?) throws(RequestListError) {
        var spec = RequestSpec(name: initialName, url: "")
        // Preamble: comments, directives, variables, blank lines.
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmed
            let indent = line.leadingWhitespaceCount
            if trimmed.isEmpty { index += 1; continue }
            if trimmed.hasPrefix("/*") { try blockComment(); continue }
            if Self.isComment(trimmed) {
                try directive(in: trimmed.string, column: indent, spec: &spec)
                index += 1
                continue
            }
            if trimmed.first == UInt8(ascii: "@") { try fileVariable(line: trimmed.string, column: indent); index += 1; continue }
            if trimmed.first == UInt8(ascii: "<") {
                try script(.preRequest, spec: &spec)
                continue
            }
            if trimmed == "{{" {
                try httpyacScript(spec: &spec)
                continue
            }
            if trimmed.hasPrefix("import ") || trimmed.hasPrefix("run "), let skipped = Self.importOrRun(trimmed.string) {
                warnings.append(RequestListWarning(location: location(line: index, column: indent), message: skipped))
                index += 1
                continue
            }
            try requestLine(line, spec: &spec)
            index += 1
            try targetContinuations(spec: &spec)
            try headers(spec: &spec)
            try body(spec: &spec)
            try handlers(spec: &spec)
            if let name = spec.name {
                if let first = namesSeen[name] {
                    // httpyac and VS Code REST Client read the latest response of a name; JetBrains' client numbers duplicates.
                    // One warning per name, at its first repeat (a generated list may repeat one thousands of times).
                    if namesRepeated.insert(name).inserted {
                        warnings.append(RequestListWarning(
                            location: location(line: spec.location!.line - 1 - firstLine, column: 0),
                            message: "the request name \(quoting: name) is used more than once (first on line \(first), again here): "
                                + "a reference to it reads the nearest request of that name before the reference"))
                    }
                } else {
                    namesSeen[name] = spec.location!.line
                }
            }
            keep(consume spec)
            return
        }
        fileScripts += spec.scripts // a block of scripts and variables only
    }

    /// Keeps what `keeps` says of a parsed request.
    private mutating func keep(_ spec: consuming RequestSpec) {
        switch keeps {
        case .requests:
            specs.append(spec)
        case .blockStarts:
            blocks.append(WrittenRequests.Block(byte: UInt32(blockStart), line: UInt32(firstLine)))
            if let name = spec.name { requestNames.append((requestCount, name)) }
            resolvesAsWritten.append(RequestResolver.resolvesAsWritten(spec))
        case .lastRequest:
            lastRequest = spec
        }
        requestCount += 1
    }

    /// A script at `index` (`< {% … %}`, `> {% … %}` over one or more lines, `> file.js`,
    /// `>> file`): recorded in the spec, skipped with one warning, `index` moved past it.
    mutating func script(_ defaultKind: SkippedScript.Kind, spec: inout RequestSpec) throws(RequestListError) {
        let line = lines[index]
        let column = line.leadingWhitespaceCount
        let location = self.location(line: index, column: column)
        var rest = line.trimmed.string
        var kind = defaultKind
        if rest.hasPrefix(">>") {
            kind = .outputRedirect
            rest = String(rest.drop { $0 == ">" || $0 == "!" })
        } else {
            rest = String(rest.dropFirst())
        }
        rest = rest.trimmingWhitespace()
        var source = rest
        if rest.hasPrefix("{%") {
            // Inline script: up to the line holding `%}`.
            var text = String(rest.dropFirst(2))
            var end = index
            while !text.contains("%}") {
                end += 1
                guard end < lines.count, !Self.isSeparator(lines[end]) else {
                    throw error("script '{%' is not closed with '%}'", line: index, column: column)
                }
                text += "\n" + lines[end].string
            }
            source = String(text[..<text.range(of: "%}")!.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
            index = end + 1
        } else {
            index += 1
        }
        spec.scripts.append(SkippedScript(kind: kind, source: source, location: location))
        let what: String = switch kind {
        case .preRequest, .variableDirective: "pre-request script skipped: reqtop does not run scripts"
        case .responseHandler: "response handler skipped: reqtop does not run scripts (its assertions and variables are not applied)"
        case .outputRedirect: "'>>' skipped: reqtop does not save responses to files (use --har)"
        }
        warnings.append(RequestListWarning(location: location, message: what))
    }

    /// An httpyac script block (`{{` … `}}` on lines of their own): skipped with a warning, kept in `scripts`.
    mutating func httpyacScript(spec: inout RequestSpec) throws(RequestListError) {
        let start = index
        var end = index + 1
        while end < lines.count, !(lines[end].trimmed == "}}") {
            guard !Self.isSeparator(lines[end]) else { throw error("httpyac script block '{{' is not closed with '}}'", line: start, column: 0) }
            end += 1
        }
        guard end < lines.count else { throw error("httpyac script block '{{' is not closed with '}}'", line: start, column: 0) }
        let location = self.location(line: start, column: 0)
        spec.scripts.append(SkippedScript(kind: .preRequest, source: lines[(start + 1)..<end].map(\.string).joined(separator: "\n"), location: location))
        warnings.append(RequestListWarning(location: location, message: "httpyac script block skipped: reqtop does not run scripts"))
        index = end + 1
    }

    /// An httpyac block comment, `/*` … `*/` over one or more lines: skipped like any comment, `index`
    /// moved past it. It ends within its request block; text after `*/` is an error, not dropped.
    mutating func blockComment() throws(RequestListError) {
        let start = index
        let column = lines[start].leadingWhitespaceCount
        var line = lines[start].dropFirst(column + 2) // a suffix of the line: offsets count from its end
        var end = start
        while true {
            if let close = line.firstIndex(ofPair: UInt8(ascii: "*"), UInt8(ascii: "/")) {
                let rest = line.dropFirst(close + 2)
                if !rest.trimmed.isEmpty {
                    let full = lines[end]
                    let offset = full.bytes.count - rest.bytes.count + rest.leadingWhitespaceCount
                    throw error("text after '*/' on the line that closes a block comment: put it on a line of its own",
                                line: end, column: full.characterColumn(ofByte: offset))
                }
                index = end + 1
                return
            }
            end += 1
            guard end < lines.count, !Self.isSeparator(lines[end]) else {
                throw error("block comment '/*' is not closed with '*/' before the next request or the end of the file", line: start, column: column)
            }
            line = lines[end]
        }
    }

    /// `HTTP/1.1 200 - OK` at the start of a line after a request: httpyac's recorded response, for
    /// reading only (the status line's shape: `HTTP/` version, a space, three digits).
    static func isRecordedResponse(_ line: TextLine) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard line.hasPrefix("HTTP/") else { return false }
        let rest = line.dropFirst(5)
        guard let space = rest.firstIndex(of: UInt8(ascii: " ")), space > 0,
              rest[0..<space].bytes.allSatisfy({ $0 == UInt8(ascii: ".") || isDigit($0) }) else { return false }
        let status = rest.dropFirst(space + 1).bytes
        return status.count >= 3 && status.prefix(3).allSatisfy(isDigit) && (status.count == 3 || status[3] == UInt8(ascii: " "))
    }

    /// Skips a recorded response (from its status line to the next separator) with a warning that
    /// says which lines were not sent.
    mutating func recordedResponse() {
        let start = index
        let stop = lines[(start + 1)...].firstIndex(where: Self.isSeparator) ?? lines.count
        var last = stop - 1
        while last > start, lines[last].trimmed.isEmpty { last -= 1 }
        let range = last > start ? "lines \(firstLine + start + 1)–\(firstLine + last + 1)" : "line \(firstLine + start + 1)"
        warnings.append(RequestListWarning(location: location(line: start, column: 0),
                                           message: "recorded response (\(range)) skipped: httpyac keeps it for reading; it is not sent nor compared"))
        index = stop
    }

    /// Response handlers and output redirections after the body, up to the next separator.
    mutating func handlers(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let trimmed = lines[index].trimmed
            if trimmed == "{{" {
                try httpyacScript(spec: &spec)
            } else if Self.isHandler(trimmed) {
                try script(.responseHandler, spec: &spec)
            } else {
                index += 1 // blank lines, comments, `<>` references after the handlers
            }
        }
    }

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
            let inQuery = spec.url.contains("?")
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
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

extension Substring {
    func trimmingWhitespaceSubstring() -> String { String(self).trimmingWhitespace() }
}
