import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
            : RequestSpecs(written: WrittenRequests(source: .text(text), path: path, blocks: state.blocks, droppedNames: state.droppedNames,
                                                   names: state.requestNames, resolvesAsWritten: state.resolvesAsWritten))
        var list = RequestList(
            specs: specs, fileVariables: state.variables, sourcePath: path, format: .http,
            warnings: state.warnings, sourceText: text)
        list.fileScripts = state.fileScripts
        return list
    }

    /// Parses the long `.http` file `file` a window at a time: the list keeps where each request
    /// starts and reads it again from the file when it is sent (`ListFile`), so the text is never
    /// in memory whole.
    static func parse(file: ListFile, checkBodyFiles: Bool = true) throws(RequestListError) -> RequestList {
        var state = HTTPFileParseState(path: file.path, checkBodyFiles: checkBodyFiles)
        state.keeps = .blockStarts
        try state.run(file)
        let specs = RequestSpecs(written: WrittenRequests(source: .file(file), path: file.path, blocks: state.blocks,
                                                          droppedNames: state.droppedNames, names: state.requestNames,
                                                          resolvesAsWritten: state.resolvesAsWritten))
        var list = RequestList(specs: specs, fileVariables: state.variables, sourcePath: file.path, format: .http,
                               warnings: state.warnings, source: SourceText(loading: file.wholeText, hints: state.scriptHints))
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
        let dir = path.deletingLastPathComponent
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
    /// Where the request being parsed starts when it is not the block's first (it follows another's
    /// handlers with no `###`): its byte offset in the text and its 0-based line.
    var requestStart: (byte: Int, line: Int)?
    /// The text's first byte, to tell a line's offset.
    var textBase: UnsafePointer<UInt8>?
    /// The offset in the file of `textBase` (a file read a window at a time).
    var baseOffset = 0
    /// What a file read a window at a time showed of scripts (its text is not kept to look again).
    var scriptHints = ScriptHints()
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
    var fileScripts: [RequestScript] = []
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
        var fileScripts: [RequestScript]
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
            && (path.containsBytes("/") || path.containsBytes("."))
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
        guard words.count == 2, let target = words.last.map(String.init), !target.containsBytes("://") else { return nil }
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
        textBase = buffer.baseAddress
        // (Capped: a text of `###` lines and little else does not reserve room for a request per line.)
        if keeps == .requests { specs.reserveCapacity(min(Self.separatorCount(in: buffer), buffer.count / 16) + 1) }
        while let start = position {
            let next = HTTPFileParseState.block(in: buffer, from: start, into: &lines)
            blockStart = start
            try parseRegion()
            firstLine += lines.count
            position = next
        }
        trimBlocks()
    }

    /// How many lines of the text start with `###` (a request's separator): about how many requests
    /// it holds, so that the array of them is made once instead of grown — each growth copied it to
    /// fresh pages (a 5,000-request list: 1,400 page faults, half of a run's).
    static func separatorCount(in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let hash = UInt8(ascii: "#")
        var count = 0
        var line = 0
        while line < buffer.count {
            if buffer.count - line >= 3, base[line] == hash, base[line + 1] == hash, base[line + 2] == hash { count += 1 }
            guard let newline = memchr(base + line, Int32(UInt8(ascii: "\n")), buffer.count - line) else { break }
            line = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline)) + 1
        }
        return count
    }

    /// `run` over a file read a window at a time (`ListFile`): only the window is in memory. A block
    /// that runs past the window is read again in a window that starts with it (grown if it is larger).
    mutating func run(_ file: ListFile) throws(RequestListError) {
        var window = [UInt8](repeating: 0, count: min(file.windowSize, max(1, file.size - file.start)))
        var windowOffset = file.start
        var position = 0
        var filled = 0
        var atEnd = false
        func fill(_ window: inout [UInt8], from offset: Int) -> Int {
            window.withUnsafeMutableBufferPointer { file.read(at: offset, into: $0) }
        }
        filled = fill(&window, from: windowOffset)
        guard filled >= 0 else { throw RequestListError(file: path, line: 0, column: 0, message: "cannot read the file", lineText: "") }
        atEnd = filled < window.count || windowOffset + filled >= file.size // a short read: the file ended (or shrank)
        while true {
            let outcome = try window.withUnsafeBufferPointer { all throws(RequestListError) -> Int? in
                let buffer = UnsafeBufferPointer(rebasing: all[..<filled])
                textBase = buffer.baseAddress
                baseOffset = windowOffset
                let next = HTTPFileParseState.block(in: buffer, from: position, into: &lines)
                if next == nil, !atEnd { return -1 } // the block may go on past the window
                for line in lines { scriptHints.note(line.bytes) }
                blockStart = windowOffset + position
                try parseRegion()
                firstLine += lines.count
                return next
            }
            guard let next = outcome else { break }
            if next >= 0 {
                position = next
                continue
            }
            // Read on from the start of the unfinished block (a window twice as large when it fills one).
            windowOffset += position
            if position == 0 { window = [UInt8](repeating: 0, count: window.count * 2) }
            position = 0
            filled = fill(&window, from: windowOffset)
            guard filled >= 0 else { throw RequestListError(file: path, line: 0, column: 0, message: "cannot read the file", lineText: "") }
            atEnd = filled < window.count || windowOffset + filled >= file.size // a short read: the file ended (or shrank)
        }
        textBase = nil
        trimBlocks()
    }

    private mutating func trimBlocks() {
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
        requestStart = nil
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
            // The handlers stopped at another request's line (no `###` before it): parse it too
            // (a block parsed again for one request stops at its first).
            guard keeps != .lastRequest, index < lines.count, !Self.isSeparator(lines[index]) else { return }
            if let textBase, let line = lines[index].bytes.baseAddress { requestStart = (baseOffset + textBase.distance(to: line), firstLine + index) }
            spec = RequestSpec(name: nil, url: "")
            continue
        }
        fileScripts += spec.scripts // a block of scripts and variables only
    }

    /// Keeps what `keeps` says of a parsed request.
    private mutating func keep(_ spec: consuming RequestSpec) {
        switch keeps {
        case .requests:
            specs.append(spec)
        case .blockStarts:
            let start = requestStart ?? (blockStart, firstLine)
            blocks.append(WrittenRequests.Block(byte: UInt32(start.byte), line: UInt32(start.line)))
            if let name = spec.name { requestNames.append((requestCount, name)) }
            resolvesAsWritten.append(RequestResolver.resolvesAsWritten(spec))
        case .lastRequest:
            lastRequest = spec
        }
        requestCount += 1
    }
}
