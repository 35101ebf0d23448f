/// The lines before a request line: `# @directive` comments and `@name = value` variables.
extension HTTPFileParseState {
    mutating func directive(in comment: String, column: Int, spec: inout RequestSpec) throws(RequestListError) {
        let body = (comment.hasPrefix("#") ? comment.drop(while: { $0 == "#" }) : comment.dropFirst(2)).trimmingWhitespace()
        guard body.hasPrefix("@") else { return }
        let words = body.dropFirst().split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "=" || $0 == "\t" })
        guard let key = words.first.map(String.init) else { return }
        let value = words.count > 1 ? String(words[1]).trimmingWhitespace() : ""
        switch key {
        case "name":
            guard !value.isEmpty else { throw error("'@name' needs a name, e.g. '# @name login'", line: index, column: column) }
            spec.name = value
        case "no-redirect": spec.options.followRedirects = false
        case "insecure": spec.options.insecure = true
        case "compressed": spec.options.compressed = true
        case "trusted-redirects": spec.options.trustedRedirects = true
        case "http1.1", "http2", "http2-prior-knowledge": spec.options.httpVersion = HTTPRequest.HTTPVersion(flag: key)
        case "timeout":
            guard let seconds = Double(value), seconds > 0 else {
                throw error("'@timeout' needs a number of seconds, e.g. '# @timeout 5'", line: index, column: column)
            }
            spec.options.timeout = seconds
        case "loop":
            // httpyac repeats the request; reqtop sends it once, and not at all when it needs the loop's variable.
            let location = self.location(line: index, column: column)
            let directive = RequestScript(kind: .variableDirective, source: "loop \(value)", location: location)
            spec.scripts.append(directive)
            let uses = directive.setVariables.first.map { "; requests that use {{\($0)}} are not sent" } ?? "; the request is sent once"
            warnings.append(RequestListWarning(location: location, message: "directive '@loop' skipped: reqtop does not repeat requests\(uses)"))
        case "prompt", "secret", "env-stdin-cmd", "env-json-key", "env-header-key", "file-to-variable":
            // Set a variable by asking (kulala's @secret: without echo), running a command, or reading the response or a file.
            let location = self.location(line: index, column: column)
            spec.scripts.append(RequestScript(kind: .variableDirective, source: "\(key) \(value)", location: location))
            let uses = value.split(separator: " ").first.map { "; requests that use {{\($0)}} are not sent" } ?? ""
            warnings.append(RequestListWarning(
                location: location, message: "directive '@\(key)' skipped: reqtop does not set variables this way\(uses)"))
        default:
            warnings.append(RequestListWarning(
                location: location(line: index, column: column),
                message: "directive '@\(key)' is not supported by reqtop and has no effect"))
        }
    }

    mutating func fileVariable(line trimmed: String, column: Int) throws(RequestListError) {
        let afterAt = trimmed.dropFirst()
        guard let eq = afterAt.firstIndex(of: "=") else {
            throw error("expected a file variable '@name = value'", line: index, column: column)
        }
        let name = String(afterAt[..<eq]).trimmingWhitespace()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
            throw error("invalid variable name \(quoting: name) (letters, digits, '_', '-', '.')", line: index, column: column + 1)
        }
        let rawValue = String(afterAt[afterAt.index(after: eq)...])
        let value = rawValue.trimmingWhitespace()
        let leading = rawValue.leadingWhitespaceCount
        let valueColumn = column + 1 + afterAt.distance(from: afterAt.startIndex, to: eq) + 1 + leading
        try checkTemplate(value, line: index, column: valueColumn)
        variables.append(FileVariable(name: name, value: value,
                                      location: location(line: index, column: valueColumn)))
    }
}
