import Foundation

/// Reads request lists of any supported format.
public enum RequestListLoader {
    /// Reads `path`, choosing the format by extension (`.http`/`.rest`, `.har`, `.curl`/`.sh`/`.txt`),
    /// else by content (see `RequestListFormat.sniff`).
    public static func load(path: String) throws(RequestListError) -> RequestList {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw RequestListError(file: path, line: 0, column: 0, // the file as a whole
                                   message: exists ? "cannot read the file (check its permissions)" : "no such file", lineText: "")
        }
        let text = String(decoding: data, as: UTF8.self)
        let format = RequestListFormat(pathExtension: (path as NSString).pathExtension) ?? RequestListFormat.sniff(text)
        return try load(text: text, path: path, format: format)
    }

    /// Parses `text` as `format`; `path` is used in messages and to resolve relative body files.
    public static func load(text: String, path: String, format: RequestListFormat) throws(RequestListError) -> RequestList {
        switch format {
        case .http: return try HTTPFileParser.parse(text: text, path: path)
        case .har: return try HARImporter.parse(text: text, path: path)
        case .curl: return try CurlImporter.parse(text: text, path: path)
        }
    }

    /// The list written in `format` (for `reqtop convert`). `.http` output keeps `{{variables}}`;
    /// HAR and curl cannot carry them, so each request is resolved with `variables` first (a request
    /// that waits for another's response is written as its template, with a warning). Bodies that
    /// cannot be written inline go to `bodyFiles` (named `<bodyFilePrefix>-<n>.bin`).
    public static func convert(_ list: RequestList, variables: VariableContext = VariableContext(), to format: RequestListFormat,
                               creator: (name: String, version: String) = ("reqtop", "0"),
                               bodyFilePrefix: String = "body") throws -> ConvertedList {
        var bodyFiles = BodyFiles(prefix: bodyFilePrefix)
        var warnings: [RequestListWarning] = []
        if format == .http {
            let text = HTTPFileWriter.text(for: list, bodyFiles: &bodyFiles)
            return ConvertedList(data: Data(text.utf8), bodyFiles: bodyFiles, warnings: warnings)
        }
        let resolver = RequestResolver(list: list, variables: variables)
        try resolver.validate()
        var items: [HARWriter.Either] = []
        for index in list.specs.indices {
            let dependencies = resolver.dependencies(of: index)
            if dependencies.isEmpty {
                items.append(.request(try resolver.resolve(index)))
            } else {
                let spec = list.specs[index]
                warnings.append(RequestListWarning(
                    location: spec.location,
                    message: "request \(spec.name ?? "#\(index + 1)") uses the response of \(dependencies.sorted().joined(separator: ", ")); written with its {{variables}}"))
                items.append(.template(spec))
            }
        }
        switch format {
        case .har:
            return ConvertedList(data: try HARWriter.data(requests: items, creator: creator), bodyFiles: bodyFiles, warnings: warnings)
        default:
            let commands = items.map { item in
                switch item {
                case .request(let request): CurlWriter.command(for: request, bodyFiles: &bodyFiles)
                case .template(let spec): CurlWriter.command(for: spec, bodyFiles: &bodyFiles)
                }
            }
            return ConvertedList(data: Data((commands.joined(separator: "\n\n") + "\n").utf8), bodyFiles: bodyFiles,
                                 warnings: warnings)
        }
    }
}
