import FoundationEssentials

/// What the readers of other tools' JSON exports (Postman, Insomnia) share: warnings located in
/// the file, a Content-Type added only when the request has none, and form-data fields written as
/// an `.http` multipart body (text parts, file parts read when the request is sent).
protocol ExportedListReader {
    var path: String { get }
    var warnings: [RequestListWarning] { get set }
}

/// One form-data field of an export: text, or a file read when the request is sent.
struct ExportedFormField {
    var name: String
    var value: String
    /// The file's path (relative to the export), for a file field.
    var file: String?
    var contentType: String?
}

extension ExportedListReader {
    func location(_ node: LocatedJSON) -> SourceLocation { SourceLocation(file: path, line: node.line, column: node.column) }

    mutating func warn(_ node: LocatedJSON, _ message: String) {
        warnings.append(RequestListWarning(location: location(node), message: message))
    }

    /// `value` as the Content-Type, unless the request sets one (or `value` is empty).
    static func addContentType(_ value: String, to headers: inout [HTTPHeader]) {
        guard !value.isEmpty, !headers.contains(where: { HTTPHeader.namesMatch($0.name, "Content-Type") }) else { return }
        headers.append(HTTPHeader(name: "Content-Type", value: value))
    }

    /// `fields` as `multipart/form-data` (its Content-Type replacing the request's). Text parts end
    /// their lines with "\n" (sent as CRLF) and the parts are joined by a line break.
    func multipart(_ fields: [ExportedFormField], headers: inout [HTTPHeader]) -> RequestBody? {
        guard !fields.isEmpty else { return nil }
        let boundary = "reqtop-form-boundary"
        headers.removeAll { HTTPHeader.namesMatch($0.name, "Content-Type") }
        headers.append(HTTPHeader(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)"))
        let directory = path.deletingLastPathComponent
        var parts: [BodyPart] = []
        var text = ""
        for field in fields {
            text += "--\(boundary)\n"
            if let file = field.file {
                text += "Content-Disposition: form-data; name=\"\(field.name)\"; filename=\"\(file.lastPathComponent)\"\n"
                if let type = field.contentType { text += "Content-Type: \(type)\n" }
                parts.append(.text(text))
                parts.append(.file(path: file, resolvedAgainst: directory, substitutesVariables: false))
                text = ""
            } else {
                text += "Content-Disposition: form-data; name=\"\(field.name)\"\n"
                if let type = field.contentType { text += "Content-Type: \(type)\n" }
                text += "\n" + field.value + "\n"
            }
        }
        parts.append(.text(text + "--\(boundary)--\n"))
        // Text fields only: one text body (sent with CRLF line ends, as any multipart body).
        if parts.count == 1, case .text(let all)? = parts.first { return .text(all) }
        return .parts(parts)
    }
}
