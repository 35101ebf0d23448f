import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The parts of a `.http` block that are not the request: scripts (run by the runner),
/// httpyac block comments, recorded responses and response handlers.
extension HTTPFileParseState {
    /// A script at `index` (`< {% … %}`, `> {% … %}` over one or more lines, `> file.js`,
    /// `>> file`): recorded in the spec (an inline one located at its first character, so its
    /// errors point into the file), `index` moved past it. `>>` is skipped with a warning.
    mutating func script(_ defaultKind: RequestScript.Kind, spec: inout RequestSpec) throws(RequestListError) {
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
        var inFile = true
        let start = index
        var scriptColumn = column
        if rest.hasPrefix("{%") {
            // Inline script: up to the line holding `%}`.
            inFile = false
            var text = String(rest.dropFirst(2))
            // Where its first character is: after `{%` on the marker's line, or on the next line.
            scriptColumn = line.string.distance(from: line.string.startIndex, to: line.string.byteRange(of: "{%")!.upperBound)
            var end = index
            while !text.containsBytes("%}") {
                end += 1
                guard end < lines.count, !Self.isSeparator(lines[end]) else {
                    throw error("script '{%' is not closed with '%}'", line: index, column: column)
                }
                text += "\n" + lines[end].string
            }
            source = String(text[..<text.byteRange(of: "%}")!.lowerBound])
            index = end + 1
        } else {
            index += 1
        }
        let scriptLocation = inFile ? location : self.location(line: start, column: scriptColumn)
        spec.scripts.append(RequestScript(kind: kind, source: source, location: scriptLocation, inFile: inFile))
        if kind == .outputRedirect {
            warnings.append(RequestListWarning(location: location, message: "'>>' skipped: reqtop does not save responses to files (use --har)"))
        }
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
        spec.scripts.append(RequestScript(kind: .preRequest, source: lines[(start + 1)..<end].map(\.string).joined(separator: "\n"), location: location))
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

    /// Whether a line after a request's handlers is the line of another request: a method in capitals
    /// and a URL, or a URL alone.
    static func startsARequest(_ trimmed: TextLine) -> Bool {
        let text = trimmed.string
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return true }
        guard let space = text.firstIndex(of: " ") else { return false }
        let rest = text[space...].drop { $0 == " " }
        return RequestLine.methods.contains(String(text[..<space])) && !rest.isEmpty
    }

    /// Response handlers and output redirections after the body, up to the next separator (or the
    /// line of a request that follows with no separator).
    mutating func handlers(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let trimmed = lines[index].trimmed
            if trimmed == "{{" {
                try httpyacScript(spec: &spec)
            } else if Self.isHandler(trimmed) {
                try script(.responseHandler, spec: &spec)
            } else if Self.startsARequest(trimmed) {
                // A request after the handlers with no `###` before it (httpyac's examples): the block
                // goes on with it, said once (never dropped).
                warnings.append(RequestListWarning(location: location(line: index, column: lines[index].leadingWhitespaceCount),
                                                   message: "a request after the previous one's response handler without '###' before it: "
                                                       + "taken as the next request (as httpyac does; the JetBrains client needs '###')"))
                return
            } else {
                index += 1 // blank lines, comments, `<>` references after the handlers
            }
        }
    }
}
