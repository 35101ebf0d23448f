import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes a HAR 1.2 file entry by entry, so a session of any length is saved with one entry (and
/// one body) in memory at a time. A regular file (or a new one) appears at its path only when
/// `finish()` succeeds (written beside it, then renamed); `cancel()` or an error leaves it as it
/// was. A symbolic link or a device (`/dev/stdout`) is written through, never replaced — so what
/// it points to is truncated when writing starts; a folder is refused.
public final class HARStreamWriter {
    private let secrets: SecretPolicy
    public let path: String
    /// The file written: a partial file beside `path`, or `path` itself when it is written through.
    private let partial: String
    private let writesThrough: Bool
    private let handle: OpenFile
    private let encoder: JSONEncoder
    private var count = 0

    /// - Parameter secrets: what each entry hides (asked at each `append`: values registered meanwhile count).
    public init(path: String, creator: (name: String, version: String), secrets: SecretPolicy) throws {
        self.path = path
        self.secrets = secrets
        let url = URL(fileURLWithPath: path)
        var isFolder: Bool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
            throw CocoaError(.fileWriteInvalidFileName, userInfo: ["NSFilePath": path,
                                                                  "NSLocalizedDescription": "\(path) is a folder: give a file name"])
        }
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        writesThrough = isLink || (type != nil && type != .typeRegular) // a symlink, a device, a pipe
        partial = writesThrough ? path
            : url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        // A HAR with secrets in clear (--include-secrets) is readable by its owner only.
        let mode: Int = secrets.redacts ? 0o644 : 0o600
        if !writesThrough, !FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: mode]) {
            throw CocoaError(.fileWriteNoPermission, userInfo: ["NSFilePath": path,
                                                               "NSLocalizedDescription": "cannot create a file beside \(path)"])
        }
        if writesThrough {
            // open(2) follows the link (creating its target) and truncates a file; a device is just opened.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
            guard fd >= 0 else {
                throw CocoaError(.fileWriteNoPermission, userInfo: ["NSFilePath": path, "NSLocalizedDescription":
                                                                    "cannot write \(path): \(String(cString: strerror(errno)))"])
            }
            handle = OpenFile(descriptor: fd)
        } else {
            handle = try OpenFile(forWritingAtPath: partial)
        }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let head = try encoder.encode(HAR.Creator(name: creator.name, version: creator.version))
        try write(Data(#"{"log":{"version":"1.2","creator":"#.utf8) + head + Data(#","entries":["#.utf8) + Data("\n".utf8))
    }

    /// Appends entries (each on its own line), their secrets hidden as the policy says.
    public func append(_ entries: [HARExportEntry]) throws {
        let redaction = secrets.redaction
        var chunk = Data()
        for entry in entries {
            if count > 0 { chunk.append(contentsOf: Array(",\n".utf8)) }
            chunk.append(try encoder.encode(HARWriter.model(of: redaction.map(entry.redacted) ?? entry)))
            count += 1
        }
        try write(chunk)
    }

    /// Closes the document and puts it at `path`.
    public func finish() throws {
        try write(Data("\n]}}\n".utf8))
        try handle.close()
        if writesThrough { return }
        // rename(2) replaces an existing file atomically: the old HAR stays whole until the new one is.
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": path, "NSLocalizedDescription": "cannot write \(path): \(reason)"])
        }
    }

    /// Drops the partial file; `path` is untouched.
    public func cancel() {
        try? handle.close()
        if !writesThrough { try? FileManager.default.removeItem(atPath: partial) }
    }

    private func write(_ data: Data) throws {
        do { try handle.write(data) } catch {
            cancel()
            throw error
        }
    }
}
