import Foundation

/// Finds files of the top-level `Resources/` folder.
enum ResourceLocator {
    /// Looks for `name` in `$REQTOP_RESOURCES`, then `<dir of executable>/../../Resources`
    /// (for `.build/debug/reqtop`, also through its symlink), then `./Resources`.
    /// - Returns: the path, or the list of places searched when none has it.
    static func find(_ name: String) -> Result<String, ResourceNotFound> {
        var candidates: [String] = []
        if let folder = ProcessInfo.processInfo.environment["REQTOP_RESOURCES"], !folder.isEmpty {
            candidates.append((folder as NSString).appendingPathComponent(name))
        }
        // `.build/debug` is a symlink to `.build/<triple>/debug`: try the path as invoked, then the real one.
        let invoked = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let real = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for (folder, up) in [(invoked, "../.."), (real, "../.."), (real, "../../..")] {
            let path = folder.appendingPathComponent("\(up)/Resources/\(name)").standardizedFileURL.path
            if !candidates.contains(path) { candidates.append(path) }
        }
        candidates.append((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent("Resources/\(name)"))
        if let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) { return .success(found) }
        return .failure(ResourceNotFound(name: name, searched: candidates))
    }
}

/// A resource file that is nowhere to be found.
struct ResourceNotFound: Error, CustomStringConvertible {
    let name: String
    let searched: [String]
    var description: String {
        "cannot find \(name); looked in:\n" + searched.map { "  \($0)\n" }.joined()
            + "Set REQTOP_RESOURCES to the folder that holds it (the repository's Resources/)."
    }
}
