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

    /// The list written in `format` (for `reqtop convert`).
    public static func convert(_ list: RequestList, to format: RequestListFormat,
                               creator: (name: String, version: String) = ("reqtop", "0")) throws -> Data {
        switch format {
        case .http: return Data(HTTPFileWriter.text(for: list).utf8)
        case .har: return try HARWriter.data(specs: list.specs, creator: creator)
        case .curl: return Data(CurlWriter.commands(for: list.specs).utf8)
        }
    }
}
