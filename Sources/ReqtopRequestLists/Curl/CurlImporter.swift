import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads curl command lines — what browsers' "Copy as cURL (bash)" produce — into specs.
///
/// Applied: `-X`, `-H`, `-d`/`--data`/`--data-ascii`/`--data-raw`/`--data-binary`/`--data-urlencode`,
/// `-G`, `-u`, `-b`/`--cookie`, `-A`, `-e`, `--compressed`, `-k`/`--insecure`, `-L`, `-I`/`--head`,
/// `--url`, `-m`/`--max-time`. Every other flag is listed in a warning. Several commands may
/// follow each other in one file.
public enum CurlImporter {
    public static func parse(text: String, path: String) throws(RequestListError) -> RequestList {
        let lines = text.splitLines()
        let split: (commands: [ShellWords.Command], warnings: [(message: String, line: Int, column: Int)])
        do {
            split = try ShellWords.split(text)
        } catch {
            throw RequestListError(file: path, line: error.line, column: error.column, message: error.message,
                                   lineText: error.line <= lines.count ? lines[error.line - 1] : "")
        }
        let dir = path.deletingLastPathComponent
        let directory = dir.isEmpty ? "." : dir
        var specs: [RequestSpec] = []
        var warnings = split.warnings.map {
            RequestListWarning(location: SourceLocation(file: path, line: $0.line, column: $0.column), message: $0.message)
        }
        var commandLine = 1 // where the command being read starts
        do throws(RequestListError) {
            for command in split.commands {
                guard let first = command.words.first else { continue }
                commandLine = first.line
                let location = SourceLocation(file: path, line: first.line, column: first.column)
                guard first.text == "curl" || first.text.hasSuffix("/curl") else {
                    let what = first.text.isEmpty ? command.unreplayable.map { "a line with \($0.message.prefix { $0 != " " })" } ?? "a line" : "\(quoting: first.text)"
                    let skipped = RequestListWarning(location: location, message: "skipped \(what): not a curl command")
                    if !warnings.contains(skipped) { warnings.append(skipped) } // (a loop's body is read once per iteration)
                    continue
                }
                if let why = command.unreplayable {
                    throw RequestListError(file: path, line: why.line, column: why.column, message: why.message,
                                           lineText: why.line <= lines.count ? lines[why.line - 1] : "")
                }
                var stdin: Data?
                switch command.stdin {
                case .file(let file)?:
                    let full = RequestBody.absolutePath(file, relativeTo: directory)
                    guard let data = FileManager.default.contents(atPath: full) else {
                        throw RequestListError(file: path, line: first.line, column: first.column,
                                               message: "cannot read \(quoting: file), the command's standard input (looked for \(full))",
                                               lineText: first.line <= lines.count ? lines[first.line - 1] : "")
                    }
                    stdin = data
                case .text(let text)?: stdin = Data(text.utf8)
                case nil: break
                }
                // `--next` (`-:`) starts a new request with fresh options.
                let groups = command.words.dropFirst().split(whereSeparator: { $0.text == "--next" || $0.text == "-:" })
                for group in groups {
                    var curl = CurlCommand(location: location, directory: directory, lines: lines, stdin: stdin)
                    try curl.apply(Array(group))
                    specs += try curl.specs()
                    warnings += curl.warnings
                }
            }
        } catch {
            // The failing command's own warnings may explain it (a variable that expanded to nothing made the path or URL).
            var error = error
            let lines = commandLine...max(commandLine, error.line)
            error.notes = warnings.filter { $0.message.containsBytes("expands to nothing") && lines.contains($0.location?.line ?? 0) }
                .prefix(5).map(\.description)
            throw error
        }
        guard !specs.isEmpty else {
            throw RequestListError(file: path, line: 1, column: 1, message: "no curl command found (expected lines starting with 'curl')",
                                   lineText: lines.first ?? "")
        }
        warnings += LiteralPlaceholders.warnings(for: specs, format: .curl)
        // In the order of the script (the shell's warnings were gathered before the commands').
        let ordered = warnings.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            return (x?.line ?? 0, x?.column ?? 0, a.offset) < (y?.line ?? 0, y?.column ?? 0, b.offset)
        }.map(\.element).reduce(into: [RequestListWarning]()) { unique, warning in
            if unique.last != warning { unique.append(warning) } // a loop's body says the same thing each iteration
        }
        return RequestList(specs: specs, sourcePath: path, format: .curl, warnings: ordered, sourceLines: lines)
    }
}
