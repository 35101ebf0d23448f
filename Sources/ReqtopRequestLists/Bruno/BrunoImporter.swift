import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a Bruno collection (a folder with `bruno.json`; or one `.bru` file of it) as a request
/// list that resolves as a `.http` list does.
///
/// Requests are taken folder by folder (sub-folders first, then requests, each by `meta { seq }`
/// then name), named `Folder / Request`. Headers and auth come from `collection.bru`, each
/// `folder.bru` and the request (`auth: inherit` takes the nearest); `auth:basic`, `auth:bearer`
/// and `auth:apikey` are applied, others are said and the request goes without. Bodies: json,
/// text, xml, form-urlencoded, multipart-form (`@file(…)` parts), graphql (with its vars) and
/// file. Disabled (`~`) entries are left out. `vars:pre-request` of the collection are variables;
/// a folder's and a request's are substituted into that request. `script:pre-request`,
/// `script:post-response` and `tests` run in the script engine (`bru`, `req`, `res`, `test`,
/// `expect`); `vars:post-response` of the form `res.body.a.b` / `res.headers.x` / `res.status`
/// are captures and `assert` entries are checks, as a Hurl file's are. Environments are
/// `environments/NAME.bru` (`--env NAME`).
enum BrunoImporter {
    static let methods = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]

    /// The folder holding `bruno.json` at or above `path`, or nil.
    static func collectionRoot(of path: String) -> String? {
        // Absolute and standardized first: walking up a relative path (`x.bru`, `.`) would end in "".
        let absolute = RequestBody.absolutePath(path, relativeTo: FileManager.default.currentDirectoryPath)
        var isDirectory: Bool = false
        var directory = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory
            ? absolute : absolute.deletingLastPathComponent
        for _ in 0..<32 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("bruno.json")) { return directory }
            guard directory != "/", !directory.isEmpty else { break }
            directory = directory.deletingLastPathComponent
        }
        return nil
    }

    /// Reads the collection at `path` (its folder, or a `.bru` file in it: then that request only).
    static func parse(path: String) throws(RequestListError) -> RequestList {
        // Walked as an absolute path (`.` and `x.bru` have no parent to walk up to); said as given.
        let absolute = RequestBody.absolutePath(path, relativeTo: FileManager.default.currentDirectoryPath)
        var isDirectory: Bool = false
        _ = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
        let root = collectionRoot(of: absolute) ?? (isDirectory ? absolute : absolute.deletingLastPathComponent)
        var reader = BrunoReader(root: root)
        try reader.readCollection()
        if isDirectory {
            try reader.walk(directory: absolute, folders: [], inherited: reader.collectionLevel)
        } else {
            try reader.single(file: absolute)
        }
        var list = RequestList(specs: reader.specs, fileVariables: reader.variables, sourcePath: path, format: .http,
                               warnings: reader.warnings, sourceLines: [])
        list.variableHint = "give it in environments/<name>.bru (--env NAME), in vars:pre-request, or with --var NAME=…"
        return list
    }
}

/// What a folder passes down: headers, auth, scripts, variables.
struct BrunoLevel {
    var headers: [HTTPHeader] = []
    var auth: (mode: String, file: BruFile)?
    var preScripts: [RequestScript] = []
    var postScripts: [RequestScript] = []
    var variables: [(String, String)] = []
}

struct BrunoReader: ExportedListReader {
    let root: String
    var path: String { root }
    var specs: [RequestSpec] = []
    var variables: [FileVariable] = []
    var warnings: [RequestListWarning] = []
    var collectionLevel = BrunoLevel()

    init(root: String) {
        self.root = root
    }

    static func read(_ path: String) throws(RequestListError) -> BruFile {
        guard let text = RequestListLoader.readText(path: path) else {
            throw RequestListError(file: path, line: 0, column: 0, message: "cannot read the file", lineText: "")
        }
        return try BruFile(text: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, path: path)
    }

    mutating func readCollection() throws(RequestListError) {
        let file = root.appendingPathComponent("collection.bru")
        guard FileManager.default.fileExists(atPath: file) else { return }
        let bru = try Self.read(file)
        collectionLevel = level(bru, over: BrunoLevel())
        for entry in bru.block("vars:pre-request")?.entries ?? [] where entry.enabled {
            variables.append(FileVariable(name: entry.key, value: entry.value, location: SourceLocation(file: file, line: 0, column: 0)))
        }
        collectionLevel.variables = []
    }

    /// A folder's (or the collection's) headers, auth, scripts and variables over its parent's.
    func level(_ bru: BruFile, over parent: BrunoLevel) -> BrunoLevel {
        var level = parent
        level.headers += bru.block("headers")?.entries.filter(\.enabled).map { HTTPHeader(name: $0.key, value: $0.value) } ?? []
        if let mode = bru.block("auth")?.entries.first(where: { $0.key == "mode" })?.value, mode != "inherit" {
            level.auth = (mode, bru)
        }
        level.preScripts += Self.script(bru, "script:pre-request", .preRequest)
        level.postScripts += Self.script(bru, "script:post-response", .responseHandler) + Self.script(bru, "tests", .responseHandler)
        level.variables += bru.block("vars:pre-request")?.entries.filter(\.enabled).map { ($0.key, $0.value) } ?? []
        return level
    }

    static func script(_ bru: BruFile, _ name: String, _ kind: RequestScript.Kind) -> [RequestScript] {
        guard let block = bru.block(name), !block.text.trimmingWhitespaceAndNewlines().isEmpty else { return [] }
        return [RequestScript(kind: kind, source: block.text, location: SourceLocation(file: bru.path, line: block.line + 1, column: 3))]
    }

    static func seq(_ bru: BruFile?) -> Double { bru?.block("meta")?.entries.first { $0.key == "seq" }.flatMap { Double($0.value) } ?? .infinity }

    mutating func walk(directory: String, folders: [String], inherited: BrunoLevel) throws(RequestListError) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var subfolders: [(seq: Double, name: String, path: String, bru: BruFile?)] = []
        var requests: [(seq: Double, name: String, bru: BruFile)] = []
        for name in names where !name.hasPrefix(".") && name != "node_modules" {
            let full = directory.appendingPathComponent(name)
            var isDirectory: Bool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            if isDirectory {
                if directory == root, name == "environments" { continue }
                let folderFile = full.appendingPathComponent("folder.bru")
                let bru = FileManager.default.fileExists(atPath: folderFile) ? try Self.read(folderFile) : nil
                let title = bru?.block("meta")?.entries.first { $0.key == "name" }?.value ?? name
                subfolders.append((Self.seq(bru), title, full, bru))
            } else if name.hasSuffix(".bru"), name != "folder.bru", name != "collection.bru" {
                let bru = try Self.read(full)
                requests.append((Self.seq(bru), name.deletingPathExtension, bru))
            }
        }
        for folder in subfolders.sorted(by: { ($0.seq, $0.name) < ($1.seq, $1.name) }) {
            let level = folder.bru.map { self.level($0, over: inherited) } ?? inherited
            try walk(directory: folder.path, folders: folders + [folder.name], inherited: level)
        }
        for item in requests.sorted(by: { ($0.seq, $0.name) < ($1.seq, $1.name) }) {
            request(item.bru, folders: folders, inherited: inherited)
        }
    }

    /// One `.bru` file of the collection, with the folders above it.
    mutating func single(file: String) throws(RequestListError) {
        var level = collectionLevel
        var folders: [String] = []
        var directory = file.deletingLastPathComponent
        var chain: [String] = []
        while !directory.isEmpty, directory != root, directory.hasPrefix(root) {
            chain.insert(directory, at: 0)
            directory = directory.deletingLastPathComponent
        }
        for folder in chain {
            let folderFile = folder.appendingPathComponent("folder.bru")
            folders.append(folder.lastPathComponent)
            if FileManager.default.fileExists(atPath: folderFile) { level = self.level(try Self.read(folderFile), over: level) }
        }
        request(try Self.read(file), folders: folders, inherited: level)
    }
}
