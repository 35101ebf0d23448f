import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `http-client.env.json` and `http-client.private.env.json` of a `.http` file: beside it, else in
/// the nearest folder above it that has one, up to the repository's root (the folder with `.git`)
/// — the JetBrains client reads a project's env files wherever they are, and projects keep their
/// `.http` files in a folder under the one with the env files.
///
/// Both map environment names to objects of variables: `{"dev": {"host": "localhost:8080"}}`.
/// A `$shared` environment supplies defaults for all. Non-string scalars are turned into
/// their JSON text; objects and arrays (JetBrains' SSL settings and such) are skipped.
public enum Environments {
    public static let publicFileName = "http-client.env.json"
    public static let privateFileName = "http-client.private.env.json"

    /// The merged variables of environment `name` (private values win); empty when `name` is nil.
    public static func load(besides httpFile: String, name: String?) throws(RequestListError) -> [String: String] {
        guard let name else { return [:] }
        if let bruno = try BrunoEnvironments.load(besides: httpFile, name: name) { return bruno }
        let dir = folder(of: httpFile)
        let publicPath = dir.appendingPathComponent(publicFileName)
        let privatePath = dir.appendingPathComponent(privateFileName)
        let files = [publicPath, privatePath].filter { FileManager.default.fileExists(atPath: $0) }
        guard !files.isEmpty else {
            throw RequestListError(
                file: publicPath, line: 1, column: 1,
                message: "environment \(quoting: name) requested but there is no \(publicFileName) or \(privateFileName) beside \(httpFile)",
                lineText: "")
        }
        var merged: [String: String] = [:]
        var found = false
        var available: Set<String> = []
        for path in files {
            let envs = try parse(path: path)
            available.formUnion(envs.keys.filter { $0 != "$shared" })
            if let shared = envs["$shared"] { merged.merge(shared) { _, new in new } }
            if let values = envs[name] {
                found = true
                merged.merge(values) { _, new in new }
            }
        }
        guard found else {
            let list = available.sorted().joined(separator: ", ")
            throw RequestListError(
                file: files[0], line: 1, column: 1,
                message: "no environment named \(quoting: name) (available: \(list.isEmpty ? "none" : list))",
                lineText: "")
        }
        return merged
    }

    /// The environment names a list can use (`--env NAME`): its env files' and, for a Bruno
    /// collection, its `environments/*.bru` (for shell completion).
    public static func names(besides list: String) -> [String] {
        var names: [String] = []
        let dir = folder(of: list)
        for file in [publicFileName, privateFileName] {
            if let environments = try? parse(path: dir.appendingPathComponent(file)) {
                names += environments.keys.filter { $0 != "$shared" }
            }
        }
        if let root = BrunoImporter.collectionRoot(of: list) {
            let folder = root.appendingPathComponent("environments")
            names += ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".bru") }
                .map { $0.deletingPathExtension }
        }
        return Array(Set(names)).sorted()
    }

    /// Every value of the private env file `httpFile` uses (all its environments'): values that must
    /// never leave the process in clear — the program registers them with its `SecretPolicy`.
    public static func secretValues(besides httpFile: String) -> [String] {
        let path = folder(of: httpFile).appendingPathComponent(privateFileName)
        guard FileManager.default.fileExists(atPath: path), let environments = try? parse(path: path) else { return [] }
        return environments.values.flatMap(\.values)
    }

    /// The environments of the env files beside `httpFile` that define `variable` (for a message
    /// when none was selected); unreadable files count as none.
    /// The folder whose env files `httpFile` uses: its own when it has one; else, inside a repository
    /// (a folder above with `.git`), the nearest folder up to that root with env files of this
    /// user's that no one else can write; else its own (so messages name the place beside the file).
    /// Outside a repository nothing above is read: a `/tmp/http-client.env.json` someone else left
    /// must not choose where requests go.
    static func folder(of httpFile: String) -> String {
        // A folder (a Bruno collection) is its own; `.` is not taken apart (Foundation cannot).
        var isDirectory: Bool = false
        let own = FileManager.default.fileExists(atPath: httpFile, isDirectory: &isDirectory) && isDirectory ? httpFile
            : httpFile.containsBytes("/") ? httpFile.deletingLastPathComponent : ""
        let start = own.isEmpty ? "." : own
        let manager = FileManager.default
        let absolute = (start.hasPrefix("/") ? start : manager.currentDirectoryPath.appendingPathComponent(start))
            .standardizingPath(home: ProcessInfo.processInfo.environment["HOME"])
        func hasEnvFiles(_ folder: String, ownedOnly: Bool) -> Bool {
            [publicFileName, privateFileName].contains { name in
                let path = folder.appendingPathComponent(name)
                guard manager.fileExists(atPath: path) else { return false }
                guard ownedOnly else { return true }
                var info = stat()
                return stat(path, &info) == 0 && info.st_uid == getuid() && info.st_mode & 0o022 == 0
            }
        }
        if hasEnvFiles(absolute, ownedOnly: false) { return start }
        var folders: [String] = []
        var candidate = absolute
        while true { // up to the repository root, if there is one
            folders.append(candidate)
            if manager.fileExists(atPath: candidate.appendingPathComponent(".git")) { break }
            let parent = candidate.deletingLastPathComponent
            if parent == candidate { return start }
            candidate = parent
        }
        return folders.dropFirst().first { hasEnvFiles($0, ownedOnly: true) } ?? start
    }

    public static func defining(_ variable: String, besides httpFile: String) -> [String] {
        let directory = folder(of: httpFile)
        var names: Set<String> = []
        for file in [publicFileName, privateFileName] {
            let path = directory.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: path), let environments = try? parse(path: path) else { continue }
            names.formUnion(environments.filter { $0.key != "$shared" && $0.value[variable] != nil }.keys)
        }
        return names.sorted()
    }

    /// Parses one env file into environment name → variables.
    public static func parse(path: String) throws(RequestListError) -> [String: [String: String]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RequestListError(file: path, line: 1, column: 1, message: "cannot read environment file", lineText: "")
        }
        return try parse(text: String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses env-file text; `path` is used in messages.
    public static func parse(text: String, path: String) throws(RequestListError) -> [String: [String: String]] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw RequestListError.json(error, text: text, file: path, what: "environment file")
        }
        guard case let .object(envs) = root else {
            throw RequestListError(file: path, line: 1, column: 1,
                                   message: "environment file must be a JSON object of environments", lineText: firstLine(text))
        }
        var result: [String: [String: String]] = [:]
        for (envName, value) in envs {
            guard case let .object(vars) = value else { continue }
            var values: [String: String] = [:]
            for (key, v) in vars {
                switch v {
                case .object, .array: continue
                default: values[key] = v.substitutionText
                }
            }
            result[envName] = values
        }
        return result
    }

    private static func firstLine(_ text: String) -> String {
        text.splitLines().first ?? ""
    }
}

extension RequestListError {
    /// A JSON syntax error in `file`, with the offending line.
    static func json(_ error: JSONSyntaxError, text: String, file: String, what: String) -> RequestListError {
        let lines = text.splitLines()
        let lineText = error.line <= lines.count ? lines[error.line - 1] : ""
        return RequestListError(file: file, line: error.line, column: error.column,
                                message: "invalid JSON in \(what): \(error.message)", lineText: lineText)
    }
}

