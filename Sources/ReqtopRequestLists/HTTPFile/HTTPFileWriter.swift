import FoundationEssentials

/// Writes specs as a `.http` file that `HTTPFileParser` reads back to the same requests.
///
/// Options without `.http` syntax use reqtop's comment directives (`# @insecure`, `# @compressed`,
/// `# @trusted-redirects`), which other clients treat as comments. A body the format cannot hold
/// inline exactly (binary bytes, text with CR, blank lines at its ends, comment lines, lines starting
/// with `&`, a last line like `@x = y`, `{{` in literal text) is written to a body file and referred to with `< file`.
public enum HTTPFileWriter {
    /// The whole list: each request, with the file variables defined above it in the source written
    /// above it again (they are positional), and those defined below the last request at the end.
    /// Secrets are hidden by `redaction` (nil: in clear, `--include-secrets`).
    public static func text(for list: RequestList, bodyFiles: inout BodyFiles, redaction: Redaction?) -> String {
        var pending = list.fileVariables.sorted { $0.location.line < $1.location.line }[...]
        func variables(above line: Int?) -> String {
            var out = ""
            while let next = pending.first, line.map({ next.location.line < $0 }) ?? true {
                out += "@\(next.name) = \(next.value)\n"
                pending.removeFirst()
            }
            return out
        }
        let templates = list.format == .http
        var blocks = list.specs.map { spec in
            // After the `###` line: before it, they would read as the end of the previous body.
            var block = text(for: spec, isTemplate: templates, bodyFiles: &bodyFiles, redaction: redaction)
            let separatorEnd = block.firstIndex(of: "\n").map(block.index(after:)) ?? block.endIndex
            block.insert(contentsOf: variables(above: spec.location?.line), at: separatorEnd)
            return block
        }
        let trailing = variables(above: nil)
        if !trailing.isEmpty { blocks.append("###\n" + trailing) }
        return blocks.joined(separator: "\n")
    }

    /// `url` with its spaces as `%20`, except inside `{{ … }}` when those are variables
    /// (`{{ host }}` stays a variable when read back).
    static func encodingSpaces(_ url: String, keepingTemplates: Bool) -> String {
        guard url.utf8.contains(0x20) else { return url }
        var out = ""
        var inVariable = false
        var previous: Character = "\0"
        for character in url {
            if keepingTemplates, character == "{", previous == "{" { inVariable = true }
            if character == " " && !inVariable { out += "%20" } else { out.append(character) }
            if character == "}", previous == "}" { inVariable = false }
            previous = character
        }
        return out
    }

    /// One request, starting with its `###` separator. `isTemplate`: `{{…}}` in the spec are
    /// variables (a `.http` source), not literal text.
    public static func text(for spec: RequestSpec, isTemplate: Bool, bodyFiles: inout BodyFiles, redaction: Redaction?) -> String {
        var out = "###"
        if let name = spec.name { out += " \(name)\n# @name \(name)" }
        out += "\n"
        out += directives(spec.options)
        for script in spec.scripts where script.kind == .preRequest && script.isJavaScript { out += text(for: script, marker: "<") }
        // `{{references}}` are kept (they name variables).
        let url = redaction?.url(spec.url) ?? spec.url
        out += "\(spec.method) \(encodingSpaces(url, keepingTemplates: isTemplate))\n"
        for header in redaction?.headers(spec.headers) ?? spec.headers { out += "\(header.name): \(header.value)\n" }
        switch spec.body {
        case nil:
            break
        case let .text(text):
            let text = redaction?.text(text) ?? text
            if canWriteInline(text, isTemplate: isTemplate) {
                out += "\n\(text)\n"
            } else {
                // A body file holds what is sent: a multipart body's CRLF line ends, and its `{{variables}}`
                // (read with `<@`, which substitutes them).
                let multipart = (spec.header(named: "Content-Type") ?? "").lowercased().hasPrefix("multipart/")
                let substitutes = isTemplate && text.containsTemplateOpening
                out += "\n\(substitutes ? "<@" : "<") \(bodyFiles.add(Data((multipart ? RequestResolver.crlf(text) : text).utf8)))\n"
            }
        case let .bytes(data):
            if let text = String(data: data, encoding: .utf8), canWriteInline(text, isTemplate: false) {
                out += "\n\(text)\n"
            } else {
                out += "\n< \(bodyFiles.add(data))\n"
            }
        case let .file(path, directory):
            // Made absolute, so the list reads back wherever it is written (a template path stays as written).
            out += "\n< \(path.containsTemplateOpening ? path : RequestBody.absolutePath(path, relativeTo: directory))\n"
        case let .form(fields):
            out += "\n\(FormEncoding.encode(fields))\n"
        case let .parts(parts):
            out += "\n"
            for part in parts {
                switch part {
                case let .text(text): out += text + "\n"
                case let .file(path, directory, substitutes):
                    let written = path.containsTemplateOpening ? path : RequestBody.absolutePath(path, relativeTo: directory)
                    out += (substitutes ? "<@ " : "< ") + written + "\n"
                }
            }
        }
        let handlers = spec.scripts.filter { $0.kind == .responseHandler && $0.isJavaScript }
        if !handlers.isEmpty { out += "\n" + handlers.map { text(for: $0, marker: ">") }.joined() }
        return out
    }

    /// A script as it was written: `< {% … %}` / `> {% … %}` around its text (kept as it was, so
    /// its errors are on the same lines relative to it), or `< file` / `> file` with the file's path
    /// made absolute (the list reads back from anywhere).
    static func text(for script: RequestScript, marker: String) -> String {
        guard script.inFile else { return "\(marker) {%\(script.source)%}\n" }
        let directory = script.location.file.deletingLastPathComponent
        return "\(marker) \(RequestBody.absolutePath(script.source, relativeTo: directory.isEmpty ? "." : directory))\n"
    }

    static func directives(_ options: HTTPRequest.Options) -> String {
        var out = ""
        if options.followRedirects == false { out += "# @no-redirect\n" }
        if options.trustedRedirects == true { out += "# @trusted-redirects\n" }
        if options.insecure == true { out += "# @insecure\n" }
        if options.compressed == true { out += "# @compressed\n" }
        if let version = options.httpVersion { out += "# @\(version.flag)\n" }
        if let timeout = options.timeout { out += "# @timeout \(formatNumber(timeout))\n" }
        if let omitted = options.omittedHeaders, !omitted.isEmpty {
            // No .http syntax leaves out a client's own field: say so where the reader sees it.
            out += "# The original goes without the client's own \(omitted.joined(separator: ", ")) (curl -H '\(omitted[0]):'); "
                + ".http cannot say so: sent from this file, they are added.\n"
        }
        return out
    }

    /// Whether the parser reads `text` back unchanged as an inline body.
    static func canWriteInline(_ text: String, isTemplate: Bool) -> Bool {
        if text.isEmpty || text.containsBytes("\r") || (!isTemplate && text.containsTemplateOpening) { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespaceSubstring() }
        if lines.first?.isEmpty == true || lines.last.map({ $0.isEmpty || HTTPFileParseState.isComment($0) }) == true {
            return false
        }
        if lines.count == 1, lines[0].hasPrefix("<") { return false }
        // A last line `@x = y` would read as a file variable.
        if lines.last.map(HTTPFileParseState.isFileVariable) == true { return false }
        // `&` at a line start joins the line before in a form body; `#`/`//` lines are comments.
        return !lines.dropFirst().contains { $0.hasPrefix("&") }
            && !lines.contains { HTTPFileParseState.isComment($0) || $0.hasPrefix("<>") || $0.hasPrefix(">") || $0.hasPrefix("< {%") }
    }

    static func formatNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
