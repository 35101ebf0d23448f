import Foundation

/// Reads curl command lines — what browsers' "Copy as cURL (bash)" produce — into specs.
///
/// Applied: `-X`, `-H`, `-d`/`--data`/`--data-ascii`/`--data-raw`/`--data-binary`/`--data-urlencode`,
/// `-G`, `-u`, `-b`/`--cookie`, `-A`, `-e`, `--compressed`, `-k`/`--insecure`, `-L`, `-I`/`--head`,
/// `--url`, `-m`/`--max-time`. Every other flag is listed in a warning. Several commands may
/// follow each other in one file.
public enum CurlImporter {
    public static func parse(text: String, path: String) throws(RequestListError) -> RequestList {
        let lines = text.splitLines()
        let commands: [[ShellWords.Word]]
        do {
            commands = try ShellWords.split(text)
        } catch {
            throw RequestListError(file: path, line: error.line, column: error.column, message: error.message,
                                   lineText: error.line <= lines.count ? lines[error.line - 1] : "")
        }
        let dir = (path as NSString).deletingLastPathComponent
        var specs: [RequestSpec] = []
        var warnings: [RequestListWarning] = []
        for words in commands {
            guard let first = words.first else { continue }
            let location = SourceLocation(file: path, line: first.line, column: first.column)
            guard first.text == "curl" || first.text.hasSuffix("/curl") else {
                warnings.append(RequestListWarning(location: location, message: "skipped '\(first.text)': not a curl command"))
                continue
            }
            var command = CurlCommand(location: location, directory: dir.isEmpty ? "." : dir, lines: lines)
            try command.apply(Array(words.dropFirst()))
            specs += try command.specs()
            warnings += command.warnings
        }
        guard !specs.isEmpty else {
            throw RequestListError(file: path, line: 1, column: 1, message: "no curl command found (expected lines starting with 'curl')",
                                   lineText: lines.first ?? "")
        }
        return RequestList(specs: specs, sourcePath: path, format: .curl, warnings: warnings, sourceLines: lines)
    }
}
