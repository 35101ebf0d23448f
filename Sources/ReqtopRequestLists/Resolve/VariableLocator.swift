/// Finds where a `{{name}}` is written, so resolution errors point at the placeholder.
struct VariableLocator: Sendable {
    let list: RequestList

    /// Lines (1-based, half-open) that belong to the spec at `index`.
    func lineRange(ofSpec index: Int) -> Range<Int>? {
        guard let start = list.specs[index].location?.line else { return nil }
        var end = max(start + 1, list.sourceLines.count + 1)
        for later in list.specs[(index + 1)...] {
            if let line = later.location?.line, line > start { end = line; break }
        }
        return start..<end
    }

    /// The location of `{{name}}` in the given lines, or nil.
    func find(_ name: String, inLines range: Range<Int>) -> RequestListError.Anchor? {
        for line in range where line >= 1 && line <= list.sourceLines.count {
            let text = list.sourceLines[line - 1]
            guard text.containsTemplateOpening, let template = try? Template.parse(text) else { continue }
            for part in template.parts {
                if case let .variable(found, offset) = part, found == name {
                    return RequestListError.Anchor(line: line, column: offset + 1)
                }
            }
        }
        return nil
    }

    /// An error about `{{name}}` used by the spec at `index` (or by file variable `variable`).
    func error(_ message: String, name: String, spec index: Int?, variable: FileVariable? = nil) -> RequestListError {
        let file = list.sourcePath
        if let variable {
            let anchor = find(name, inLines: variable.location.line..<(variable.location.line + 1))
            let line = anchor?.line ?? variable.location.line
            return RequestListError(file: file, line: line, column: anchor?.column ?? variable.location.column,
                                    message: message, lineText: list.lineText(line))
        }
        guard let index else { return RequestListError(file: file, line: 1, column: 1, message: message, lineText: "") }
        if let range = lineRange(ofSpec: index), let anchor = find(name, inLines: range) {
            return RequestListError(file: file, line: anchor.line, column: anchor.column, message: message,
                                    lineText: list.lineText(anchor.line))
        }
        return error(message, spec: index)
    }

    /// An error about the spec at `index` as a whole, at its request line.
    func error(_ message: String, spec index: Int) -> RequestListError {
        let location = list.specs[index].location
        let line = location?.line ?? 1
        return RequestListError(file: location?.file ?? list.sourcePath, line: line, column: location?.column ?? 1,
                                message: message, lineText: list.lineText(line))
    }
}

extension RequestListError {
    struct Anchor {
        var line: Int
        var column: Int
    }
}
