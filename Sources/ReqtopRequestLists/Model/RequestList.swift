import ReqtopHTTPModel
import ReqtopSync
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The formats reqtop reads and writes.
public enum RequestListFormat: String, Sendable, Hashable, CaseIterable {
    /// JetBrains HTTP Client / VS Code REST Client `.http` files.
    case http
    /// HAR 1.2 archives.
    case har
    /// curl command lines.
    case curl
    /// Hurl files (https://hurl.dev).
    case hurl
    /// Postman collections v2.0/v2.1 (read from JSON by content; written as v2.1).
    case postman

    /// The format a path's extension implies, or nil: `.http`/`.rest`, `.har`, `.curl`/`.sh`/`.txt`, `.hurl`.
    public init?(pathExtension ext: String) {
        switch ext.lowercased() {
        case "http", "rest": self = .http
        case "har": self = .har
        case "curl", "sh", "txt": self = .curl
        case "hurl": self = .hurl
        default: return nil
        }
    }

    /// Guesses the format from the text: JSON is HAR (or a Postman or Insomnia export, which the
    /// HAR reader tells apart), a first command `curl …` is curl, a Hurl status line (`HTTP 200`)
    /// or section (`[Asserts]`) on a line of its own is Hurl, else `.http`.
    public static func sniff(_ text: String) -> RequestListFormat {
        var first: RequestListFormat?
        for raw in text.splitLines() {
            let line = raw.trimmingWhitespaceAndNewlines()
            if line.isEmpty { continue }
            if first == nil {
                if line.hasPrefix("{") { return .har }
                if line == "curl" || line.hasPrefix("curl ") || line.hasPrefix("curl\t") { return .curl }
                if line.hasPrefix("#") || line.hasPrefix("//") { continue }
                first = .http
            }
            if HurlSection(line: line) != nil || HurlReader.isStatusLine(line) { return .hurl }
            if line.hasPrefix("###") || line.hasPrefix("{%") || line.hasPrefix("> {%") { return .http } // .http's own syntax
        }
        return first ?? .http
    }
}

/// A `@name = value` file variable of a `.http` file; the value is a template.
public struct FileVariable: Sendable, Hashable {
    public var name: String
    public var value: String
    /// Where the value starts.
    public var location: SourceLocation
    public init(name: String, value: String, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// Something accepted but worth telling the user, e.g. curl flags reqtop does not apply.
public struct RequestListWarning: Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String
    public init(location: SourceLocation?, message: String) {
        self.location = location
        self.message = message
    }
    public var description: String {
        if let location { return "\(location): warning: \(message)" }
        return "warning: \(message)"
    }
}

/// A parsed request list: its specs plus what is needed to resolve and report on them.
public struct RequestList: Sendable {
    public var specs: RequestSpecs
    /// `.http` file variables, every definition in file order (a name may be defined again further down:
    /// references see the latest definition above them).
    public var fileVariables: [FileVariable]
    /// What a URL without a scheme means: nil, an error (`.http`: write a full URL); `.http`, sent
    /// over http (Postman and Insomnia add `http://`).
    public enum SchemelessURL: Sendable { case http }
    public var schemeless: SchemelessURL?
    /// How the list's own format defines a variable, for an unknown variable's message (`NAME`
    /// stands for its name); nil: as `.http` files do.
    public var variableHint: String?
    /// The path the list came from (used in messages).
    public var sourcePath: String
    public var format: RequestListFormat
    public var warnings: [RequestListWarning]
    /// The source text split into lines, for pointing errors at their line (split when first asked
    /// for: a 100,000-request list would otherwise hold 400,000 line strings beside its specs).
    public var sourceLines: [String] { source.lines }
    private var source: SourceText
    /// Skipped scripts that belong to no request (an httpyac global script block).
    public var fileScripts: [RequestScript] = []

    /// Whether running the list sets variables: scripts, or captures (Hurl's `[Captures]`).
    public var setsVariablesWhenRun: Bool {
        allScripts.contains(where: \.isJavaScript) || hasChecks
    }

    /// Whether a request has response checks (a Hurl or Bruno response section; a long list read
    /// again from its text is a `.http` file, which has none: its requests are not parsed again to say so).
    public var hasChecks: Bool { !specs.isReadFromText && specs.contains { $0.checks != nil } }

    /// The first capture that sets the variable `name`.
    public func capture(setting name: String) -> ResponseChecks.Capture? {
        guard hasChecks else { return nil }
        for spec in specs {
            if let capture = spec.checks?.captures.first(where: { $0.name == name }) { return capture }
        }
        return nil
    }

    /// Every script: the file's and each request's.
    public var allScripts: [RequestScript] { fileScripts + specs.flatMap(\.scripts) }

    /// Whether the list has JavaScript to run: a pre-request script or a response handler, or an
    /// httpyac `{{ expression }}`. A text with no `{%`, no `.js` and no `{{` that is not a plain
    /// variable is answered without reading its requests again (a long list is parsed once).
    public var hasJavaScript: Bool {
        guard format == .http else { return false }
        if specs.isReadFromText, let text = source.text, !text.containsBytes("{%"), !text.containsBytes(".js"), !Self.hasExpression(text) {
            return false
        }
        if let hints = source.hints { // a file read where it lies: what its first parse saw
            return hints.expression || hints.scriptMarker && hasJavaScriptScript
        }
        return hasJavaScriptScript || Self.hasExpression(source.text ?? sourceLines.joined(separator: "\n"))
    }

    /// `allScripts.contains(where: \.isJavaScript)`, without gathering them first.
    private var hasJavaScriptScript: Bool {
        fileScripts.contains(where: \.isJavaScript) || specs.contains { $0.scripts.contains(where: \.isJavaScript) }
    }

    /// Whether `text` has a `{{…}}` whose inside is an expression rather than a variable, a dynamic
    /// variable or a response reference.
    static func hasExpression(_ text: String) -> Bool {
        guard text.containsBytes("{{") else { return false }
        var rest = Substring(text)
        while let open = rest.byteRange(of: "{{") {
            rest = rest[open.upperBound...]
            guard let close = rest.byteRange(of: "}}") else { return false }
            let inside = rest[..<close.lowerBound].trimmingWhitespace()
            if case .expression? = try? VariableReference.parse(inside) { return true }
            rest = rest[close.upperBound...]
        }
        return false
    }

    public init(
        specs: [RequestSpec], fileVariables: [FileVariable] = [], sourcePath: String, format: RequestListFormat,
        warnings: [RequestListWarning] = [], sourceLines: [String] = []
    ) {
        self.init(specs: RequestSpecs(specs), fileVariables: fileVariables, sourcePath: sourcePath, format: format,
                  warnings: warnings, source: SourceText(lines: sourceLines))
    }

    /// A list read from `sourceText` (split into lines only when a message needs one).
    public init(
        specs: RequestSpecs, fileVariables: [FileVariable] = [], sourcePath: String, format: RequestListFormat,
        warnings: [RequestListWarning] = [], sourceText: String
    ) {
        self.init(specs: specs, fileVariables: fileVariables, sourcePath: sourcePath, format: format, warnings: warnings,
                  source: SourceText(text: sourceText))
    }

    init(
        specs: RequestSpecs, fileVariables: [FileVariable], sourcePath: String, format: RequestListFormat,
        warnings: [RequestListWarning], source: SourceText
    ) {
        self.specs = specs
        self.fileVariables = fileVariables
        self.sourcePath = sourcePath
        self.format = format
        self.warnings = warnings
        self.source = source
    }


    /// The text of a 1-based line, or "" when out of range.
    public func lineText(_ line: Int) -> String {
        line >= 1 && line <= sourceLines.count ? sourceLines[line - 1] : ""
    }
}

/// The text of a list, and its lines once someone asks for them.
final class SourceText: Sendable {
    let text: String?
    /// Reads the text when its lines are first asked for (a long file read where it lies).
    private let load: (@Sendable () -> String)?
    /// What the first parse of a file read where it lies saw of scripts.
    let hints: ScriptHints?
    private let split: Protected<[String]?>

    init(text: String) {
        self.text = text
        load = nil
        hints = nil
        split = Protected(nil)
    }

    init(lines: [String]) {
        text = nil
        load = nil
        hints = nil
        split = Protected(lines)
    }

    init(loading: @escaping @Sendable () -> String, hints: ScriptHints) {
        text = nil
        load = loading
        self.hints = hints
        split = Protected(nil)
    }

    var lines: [String] {
        split.withLock { lines in
            if let lines { return lines }
            let made = (text ?? load?())?.splitLines() ?? []
            lines = made
            return made
        }
    }
}

/// What the lines of a `.http` text show of JavaScript, noted line by line as a long file is
/// read: a `{%` or `.js` (a script may be there: its requests are read to know), or a `{{…}}`
/// whose inside is an expression (httpyac's).
struct ScriptHints: Sendable {
    var scriptMarker = false
    var expression = false
    /// A `{{` not closed on its line, with the lines after it so far (httpyac's script blocks span lines).
    private var open: String?

    mutating func note(_ line: UnsafeBufferPointer<UInt8>) {
        var sawBraces = false
        var index = 0
        while index + 1 < line.count {
            let (a, b) = (line[index], line[index + 1])
            if a == UInt8(ascii: "{"), b == UInt8(ascii: "%") { scriptMarker = true }
            if a == UInt8(ascii: "."), b == UInt8(ascii: "j"), index + 2 < line.count, line[index + 2] == UInt8(ascii: "s") { scriptMarker = true }
            if (a == UInt8(ascii: "{") && b == UInt8(ascii: "{")) || (a == UInt8(ascii: "}") && b == UInt8(ascii: "}")) { sawBraces = true }
            index += 1
        }
        guard !expression else { return }
        if var text = open {
            text += "\n" + String(decoding: line, as: UTF8.self)
            if text.containsBytes("}}") {
                open = nil
                expression = RequestList.hasExpression(text)
            } else if text.utf8.count > 1 << 16 {
                open = nil
                expression = true // too long to look at: taken as an expression (the scripts engine starts; nothing else changes)
            } else {
                open = text
            }
            return
        }
        guard sawBraces else { return }
        let text = String(decoding: line, as: UTF8.self)
        if RequestList.hasExpression(text) {
            expression = true
        } else if let last = text.lastByteRange(of: "{{"), !text[last.upperBound...].containsBytes("}}") {
            open = String(text[last.lowerBound...])
        }
    }
}
