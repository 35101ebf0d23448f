import Foundation

/// Writes specs as a `.http` file that `HTTPFileParser` reads back to the same specs.
///
/// Form bodies are written as URL-encoded text; options without `.http` syntax use reqtop's
/// comment directives (`# @insecure`, `# @compressed`), which other clients treat as comments.
public enum HTTPFileWriter {
    /// The whole list: file variables first, then each request.
    public static func text(for list: RequestList) -> String {
        var out = ""
        for variable in list.fileVariables { out += "@\(variable.name) = \(variable.value)\n" }
        if !list.fileVariables.isEmpty { out += "\n" }
        return out + text(for: list.specs)
    }

    /// The requests, separated by `###`.
    public static func text(for specs: [RequestSpec]) -> String {
        specs.map(text(for:)).joined(separator: "\n")
    }

    /// One request, starting with its `###` separator.
    public static func text(for spec: RequestSpec) -> String {
        var out = "###"
        if let name = spec.name { out += " \(name)\n# @name \(name)" }
        out += "\n"
        if spec.options.followRedirects == false { out += "# @no-redirect\n" }
        if spec.options.insecure == true { out += "# @insecure\n" }
        if spec.options.compressed { out += "# @compressed\n" }
        if let timeout = spec.options.timeout { out += "# @timeout \(formatNumber(timeout))\n" }
        out += "\(spec.method) \(spec.url.replacingOccurrences(of: " ", with: "%20"))\n"
        for header in spec.headers { out += "\(header.name): \(header.value)\n" }
        switch spec.body {
        case nil:
            break
        case let .text(text):
            out += "\n\(text)\n"
        case let .file(path, _):
            out += "\n< \(path)\n"
        case let .form(fields):
            out += "\n\(FormEncoding.encode(fields))\n"
        }
        return out
    }

    static func formatNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
