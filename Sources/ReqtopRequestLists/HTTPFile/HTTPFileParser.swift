import Foundation

/// Parses JetBrains HTTP Client / VS Code REST Client `.http` files into a `RequestList`.
///
/// Syntax: `###` separators (optionally followed by a name), `# @name x`, `#` and `//` comments,
/// `@var = value`, `METHOD URL [HTTP/1.1]` with `?`/`&` continuation lines, headers until a
/// blank line, then the body until the next separator (`< ./file` for a file body).
/// Response handlers (`> {% … %}`, `>> file`) are refused with an error naming the line.
public enum HTTPFileParser {
    /// Parses `text`, which was read from `path` (used for messages and for `< file` bodies).
    /// - Parameter checkBodyFiles: report `< file` bodies that do not exist (default true).
    public static func parse(text: String, path: String, checkBodyFiles: Bool = true) throws(RequestListError) -> RequestList {
        var state = HTTPFileParseState(text: text, path: path, checkBodyFiles: checkBodyFiles)
        try state.run()
        return RequestList(
            specs: state.specs, fileVariables: state.variables, sourcePath: path, format: .http,
            warnings: state.warnings, sourceLines: state.lines)
    }
}

/// The line-by-line parse of one `.http` file.
struct HTTPFileParseState {
    let lines: [String]
    let path: String
    let directory: String
    let checkBodyFiles: Bool
    var specs: [RequestSpec] = []
    var variables: [FileVariable] = []
    var warnings: [RequestListWarning] = []
    var index = 0
    private var namesSeen: [String: Int] = [:]

    init(text: String, path: String, checkBodyFiles: Bool) {
        lines = text.splitLines()
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        directory = dir.isEmpty ? "." : dir
        self.checkBodyFiles = checkBodyFiles
    }

    func error(_ message: String, line: Int, column: Int) -> RequestListError {
        RequestListError(file: path, line: line + 1, column: column + 1, message: message, lineText: lines[line])
    }

    static func isSeparator(_ line: String) -> Bool { line.trimmingWhitespace().hasPrefix("###") }
    static func isComment(_ trimmed: String) -> Bool { trimmed.hasPrefix("#") || trimmed.hasPrefix("//") }

    mutating func run() throws(RequestListError) {
        var blockName: String?
        while index < lines.count {
            let trimmed = lines[index].trimmingWhitespace()
            if trimmed.hasPrefix("###") {
                let name = String(trimmed.dropFirst(3)).trimmingWhitespace()
                blockName = name.isEmpty ? nil : name
                index += 1
            }
            try parseBlock(name: blockName)
            blockName = nil
        }
    }

    /// Parses from `index` up to the next separator (exclusive).
    mutating func parseBlock(name initialName: String?) throws(RequestListError) {
        var spec = RequestSpec(name: initialName, url: "")
        // Preamble: comments, directives, variables, blank lines.
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            let indent = line.count - line.drop(while: { $0 == " " || $0 == "\t" }).count
            if trimmed.isEmpty { index += 1; continue }
            if Self.isComment(trimmed) {
                try directive(in: trimmed, column: indent, spec: &spec)
                index += 1
                continue
            }
            if trimmed.hasPrefix("@") { try fileVariable(line: trimmed, column: indent); index += 1; continue }
            try refuseHandler(trimmed, column: indent)
            try requestLine(line, spec: &spec)
            index += 1
            try queryContinuations(spec: &spec)
            try headers(spec: &spec)
            try body(spec: &spec)
            if let name = spec.name {
                if let first = namesSeen[name] {
                    throw error("duplicate request name '\(name)' (first used on line \(first))", line: spec.location!.line - 1, column: 0)
                }
                namesSeen[name] = spec.location!.line
            }
            specs.append(spec)
            return
        }
    }

    func refuseHandler(_ trimmed: String, column: Int) throws(RequestListError) {
        if trimmed.hasPrefix(">>") {
            throw error("'>>' response output redirection is not supported by reqtop; remove this line", line: index, column: column)
        }
        if trimmed.hasPrefix(">") {
            throw error("response handler scripts ('> {% … %}') are not supported by reqtop and are never run; remove the handler",
                        line: index, column: column)
        }
    }

    func checkTemplate(_ text: String, line: Int, column: Int) throws(RequestListError) {
        do {
            _ = try Template.parse(text)
        } catch {
            throw self.error(error.message, line: line, column: column + error.offset)
        }
    }

    mutating func requestLine(_ line: String, spec: inout RequestSpec) throws(RequestListError) {
        let parsed: RequestLine
        do {
            parsed = try RequestLine.parse(line)
        } catch {
            throw self.error(error.message, line: index, column: error.column)
        }
        try checkTemplate(parsed.url, line: index, column: parsed.urlColumn)
        spec.method = parsed.method
        spec.url = parsed.url
        let methodColumn = line.count - line.drop(while: { $0 == " " || $0 == "\t" }).count
        spec.location = SourceLocation(file: path, line: index + 1, column: methodColumn + 1)
    }

    mutating func queryContinuations(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            guard trimmed.hasPrefix("?") || trimmed.hasPrefix("&") else { return }
            let column = line.count - line.drop(while: { $0 == " " || $0 == "\t" }).count
            try checkTemplate(trimmed, line: index, column: column)
            spec.url += trimmed
            index += 1
        }
    }

    mutating func headers(spec: inout RequestSpec) throws(RequestListError) {
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { index += 1; return }
            if trimmed.hasPrefix("<") { return }
            let column = line.count - line.drop(while: { $0 == " " || $0 == "\t" }).count
            try refuseHandler(trimmed, column: column)
            if Self.isComment(trimmed) { index += 1; continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw error("expected a header 'Name: value' (or a blank line before the body)", line: index, column: column)
            }
            let name = String(line[..<colon]).trimmingWhitespace()
            guard !name.isEmpty, !name.contains(" ") else {
                throw error("invalid header name '\(name)'", line: index, column: column)
            }
            let rawValue = String(line[line.index(after: colon)...])
            let valueColumn = line.distance(from: line.startIndex, to: colon) + 1
                + rawValue.count - rawValue.drop(while: { $0 == " " || $0 == "\t" }).count
            try checkTemplate(name, line: index, column: column)
            try checkTemplate(rawValue.trimmingWhitespace(), line: index, column: valueColumn)
            spec.headers.append(HTTPHeader(name: name, value: rawValue.trimmingWhitespace()))
            index += 1
        }
    }

    mutating func body(spec: inout RequestSpec) throws(RequestListError) {
        var bodyLines: [(text: String, line: Int)] = []
        while index < lines.count, !Self.isSeparator(lines[index]) {
            let line = lines[index]
            let trimmed = line.trimmingWhitespace()
            let column = line.count - line.drop(while: { $0 == " " || $0 == "\t" }).count
            if trimmed.hasPrefix("<>") {
                warnings.append(RequestListWarning(
                    location: SourceLocation(file: path, line: index + 1, column: column + 1),
                    message: "response comparison '<>' is ignored by reqtop"))
                index += 1
                continue
            }
            try refuseHandler(trimmed, column: column)
            try checkTemplate(line, line: index, column: 0)
            bodyLines.append((line, index))
            index += 1
        }
        // Blank lines and comments before the next separator belong to no body.
        while let last = bodyLines.last.map({ $0.text.trimmingWhitespace() }), last.isEmpty || Self.isComment(last) {
            bodyLines.removeLast()
        }
        while let first = bodyLines.first, first.text.trimmingWhitespace().isEmpty { bodyLines.removeFirst() }
        guard let first = bodyLines.first else { return }
        let firstTrimmed = first.text.trimmingWhitespace()
        if bodyLines.count == 1, firstTrimmed.hasPrefix("<"), firstTrimmed.count > 1,
           firstTrimmed.dropFirst().first == " " || firstTrimmed.dropFirst().first == "\t" {
            try fileBody(first.text, line: first.line, spec: &spec)
            return
        }
        spec.body = .text(bodyLines.map(\.text).joined(separator: "\n"))
    }

    mutating func fileBody(_ line: String, line number: Int, spec: inout RequestSpec) throws(RequestListError) {
        let lt = line.firstIndex(of: "<")!
        let rest = line[line.index(after: lt)...]
        let file = rest.trimmingWhitespaceSubstring()
        let column = line.distance(from: line.startIndex, to: lt) + 1 + (rest.count - rest.drop(while: { $0 == " " || $0 == "\t" }).count)
        if checkBodyFiles, !file.contains("{{") {
            let full = RequestBody.absolutePath(file, relativeTo: directory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw error("body file '\(file)' not found (looked for \(full)); paths are relative to the .http file",
                            line: number, column: column)
            }
        }
        spec.body = .file(path: file, resolvedAgainst: directory)
    }
}

extension Substring {
    func trimmingWhitespaceSubstring() -> String { String(self).trimmingWhitespace() }
}
