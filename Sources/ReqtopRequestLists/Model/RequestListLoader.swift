import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads request lists of any supported format.
public enum RequestListLoader {
    /// Reads `path`, choosing the format by extension (`.http`/`.rest`, `.har`, `.curl`/`.sh`/`.txt`,
    /// `.hurl`), else by content (see `RequestListFormat.sniff`).
    public static func load(path: String) throws(RequestListError) -> RequestList {
        // stat, not FileManager: its first use costs a tenth of a millisecond, and this runs for every list.
        var info = stat()
        let isDirectory = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        if path.hasSuffix(".bru") || isDirectory {
            guard !isDirectory || access(path.appendingPathComponent("bruno.json"), F_OK) == 0 else {
                throw RequestListError(file: path, line: 0, column: 0, message: "a folder is read only as a Bruno collection (with a bruno.json); "
                                           + ForeignFormat.readable, lineText: "")
            }
            return try BrunoImporter.parse(path: path)
        }
        // A long .http file is read where it lies, a window at a time, never whole (`ListFile`).
        if RequestListFormat(pathExtension: path.pathExtension) == .http, let file = ListFile(path: path),
           file.size >= HTTPFileParser.writtenRequestsThreshold, file.size <= Int(UInt32.max) {
            let head = file.head(64 << 10)
            if !InsomniaImporter.isYAMLExport(head) {
                if let foreign = ForeignFormat.name(ofText: head, pathExtension: "http") {
                    throw ForeignFormat.error(path: path, name: foreign.name, line: foreign.line, lineText: foreign.text)
                }
                return try HTTPFileParser.parse(file: file)
            }
        }
        guard var text = readText(path: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw RequestListError(file: path, line: 0, column: 0, // the file as a whole
                                   message: exists ? "cannot read the file (check its permissions)" : "no such file", lineText: "")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() } // a UTF-8 BOM (Visual Studio writes one)
        if InsomniaImporter.isYAMLExport(text) { return try InsomniaImporter.parseYAML(text: text, path: path) }
        let ext = path.pathExtension
        let format = RequestListFormat(pathExtension: ext) ?? RequestListFormat.sniff(text)
        if format != .har, let foreign = ForeignFormat.name(ofText: text, pathExtension: ext) {
            throw ForeignFormat.error(path: path, name: foreign.name, line: foreign.line, lineText: foreign.text)
        }
        return try load(text: text, path: path, format: format)
    }

    /// The file's text (invalid UTF-8 repaired as `String(decoding:as:)` does). A regular file is
    /// read straight into the string's storage: through `Data` it was in memory twice.
    static func readText(path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, info.st_size < Int.max / 2 else {
            return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        let size = Int(info.st_size)
        var complete = true
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            var filled = 0
            while filled < size {
                let count = read(fd, buffer.baseAddress! + filled, size - filled)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                filled += count
            }
            var extra: UInt8 = 0
            complete = filled == size && read(fd, &extra, 1) == 0 // a file that grew or shrank meanwhile: read it again
            return filled
        }
        return complete ? text : FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Parses `text` as `format`; `path` is used in messages and to resolve relative body files.
    public static func load(text: String, path: String, format: RequestListFormat) throws(RequestListError) -> RequestList {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        switch format {
        case .http: return try HTTPFileParser.parse(text: text, path: path)
        case .har: return try HARImporter.parse(text: text, path: path)
        case .curl: return try CurlImporter.parse(text: text, path: path)
        case .hurl: return try HurlImporter.parse(text: text, path: path)
        case .postman: return try HARImporter.parse(text: text, path: path) // the JSON reader tells a collection from a HAR
        }
    }

    /// The list written in `format` (for `reqtop convert`). `.http` output keeps `{{variables}}`;
    /// HAR, curl and Hurl are written resolved (Hurl keeps a Hurl list's response checks, and the
    /// `{{name}}` of what they capture), so each request is resolved with `variables` first — except
    /// references to another request's response, which stay as `{{login.response…}}` text (with a
    /// warning: the written request would send that text). Bodies that cannot be written inline go
    /// to `bodyFiles`, named `<bodyFilePrefix>-<n>.bin` (give an absolute prefix for lists that
    /// must read back from anywhere).
    /// Secrets are hidden by `redaction` (nil: in clear, `--include-secrets`).
    public static func convert(_ list: RequestList, variables: VariableContext = VariableContext(), to format: RequestListFormat,
                               creator: (name: String, version: String) = ("reqtop", "0"),
                               bodyFilePrefix: String = "body", redaction: Redaction?) throws -> ConvertedList {
        var bodyFiles = BodyFiles(prefix: bodyFilePrefix)
        var warnings: [RequestListWarning] = []
        if format == .http {
            if list.format != .http {
                // `.http` has no way to write a literal "{{" outside a body: it would read back as a variable.
                for spec in list.specs where spec.url.containsTemplateOpening || spec.headers.contains(where: { "\($0)".containsTemplateOpening }) {
                    warnings.append(RequestListWarning(location: spec.location,
                                                       message: "'{{' in the URL or a header is read back as a {{variable}} by .http"))
                }
            }
            for spec in list.specs {
                guard let checks = spec.checks, !checks.isEmpty else { continue }
                let names = checks.capturedNames
                warnings.append(RequestListWarning(location: checks.location, message: "response checks left out: .http cannot carry them "
                    + "(convert to hurl keeps them)" + (names.isEmpty ? "" : "; what the captures set (\(names.joined(separator: ", "))) "
                        + "stays {{…}} in the requests that use it: give it with --var or an environment")))
            }
            let text = HTTPFileWriter.text(for: list, bodyFiles: &bodyFiles, redaction: redaction)
            return ConvertedList(data: Data(text.utf8), bodyFiles: bodyFiles, warnings: warnings)
        }
        let resolver = RequestResolver(list: list, variables: variables)
        try resolver.validate()
        for spec in list.specs where spec.checks != nil && format != .hurl {
            warnings.append(RequestListWarning(location: spec.checks?.location,
                                               message: "response checks left out: \(format.rawValue) cannot carry them (convert to hurl keeps them)"))
        }
        for script in list.allScripts where script.isJavaScript {
            warnings.append(RequestListWarning(location: script.location,
                                               message: "\(script.kind == .preRequest ? "pre-request script" : "response handler") left out: "
                                                   + "\(format.rawValue) cannot carry scripts (convert to http keeps them); what it sets stays {{…}}"))
        }
        var requests: [HTTPRequest] = []
        for index in list.specs.indices {
            let dependencies = resolver.dependencies(of: index)
            if dependencies.isEmpty {
                requests.append(try resolvedForWriting(index, resolver))
            } else {
                let spec = list.specs[index]
                warnings.append(RequestListWarning(
                    location: spec.location,
                    message: "request \(spec.name ?? "#\(index + 1)") uses the response of \(dependencies.sorted().joined(separator: ", ")); "
                        + "\(format.rawValue) cannot wait for it, so its {{…response…}} references are written as text"))
                requests.append(try resolver.resolveKeepingResponseReferences(index))
            }
        }
        switch format {
        case .har:
            return ConvertedList(data: try HARWriter.data(requests: requests, creator: creator, redaction: redaction), bodyFiles: bodyFiles, warnings: warnings)
        case .postman:
            for spec in list.specs where spec.method.contains(where: \.isLowercase) {
                warnings.append(RequestListWarning(location: spec.location, message: "method \(quoting: spec.method) is written as it is, but "
                                                       + "Postman sends methods in upper case (\(spec.method.uppercased()))"))
            }
            let name = list.sourcePath.lastPathComponent.deletingPathExtension
            let data = try PostmanWriter.data(for: zip(requests, list.specs).map { ($0, $1.name) }, collectionName: name.isEmpty ? "reqtop" : name,
                                              bodyFiles: &bodyFiles, redaction: redaction)
            return ConvertedList(data: data, bodyFiles: bodyFiles, warnings: warnings)
        case .hurl:
            for spec in list.specs where spec.method.contains(where: \.isLowercase) {
                warnings.append(RequestListWarning(location: spec.location, message: "method \(quoting: spec.method) is written as it is: "
                                                       + "Hurl itself reads only upper-case methods"))
            }
            let text = HurlWriter.text(for: zip(requests, list.specs).map { ($0, $1.checks) }, redaction: redaction)
            return ConvertedList(data: Data(text.utf8), bodyFiles: bodyFiles, warnings: warnings)
        default:
            let commands = requests.map { CurlWriter.command(for: $0, bodyFiles: &bodyFiles, redaction: redaction) }
            return ConvertedList(data: Data((commands.joined(separator: "\n\n") + "\n").utf8), bodyFiles: bodyFiles,
                                 warnings: warnings)
        }
    }

    /// The request at `index` as a format without scripts can hold it: a value only a script sets stays `{{name}}` (warned).
    private static func resolvedForWriting(_ index: Int, _ resolver: RequestResolver) throws(RequestListError) -> HTTPRequest {
        do {
            return try resolver.resolve(index)
        } catch {
            guard error.needsRequestScript else { throw error }
            return try resolver.resolveKeepingResponseReferences(index)
        }
    }
}
