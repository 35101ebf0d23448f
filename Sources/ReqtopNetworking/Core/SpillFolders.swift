import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Where reqtop processes keep what outgrows memory (spilled bodies, a HAR recorder's entries), and
/// how the folders of processes that died without cleaning up (killed with -9, by the OOM killer)
/// are removed.
///
/// A process's folders sit in one folder per user in the temp directory: `reqtop-<uid>/<pid>-bodies`
/// and `reqtop-<uid>/<pid>-har-entries`, all 0700. The per-user folder holds nothing else, so listing
/// it is cheap: the first session manager of a process lists it when it starts (a few system calls,
/// no thread) and removes the dead processes' folders it finds in the background. When the per-user
/// folder cannot be used — it is not a directory this user owns (made by someone else, a symlink) —
/// a process's folders go in the temp directory itself as
/// `reqtop-<pid>-bodies` (earlier versions' layout); those are looked for once per process, when it
/// first makes a folder, since the temp directory itself can hold thousands of entries.
package enum SpillFolders {
    /// What a folder holds.
    package enum Kind: String, CaseIterable, Sendable {
        case bodies
        case harEntries = "har-entries"
    }

    /// The temp directory as `FileManager.default.temporaryDirectory` names it: an absolute `$TMPDIR`
    /// without its trailing slashes, else /tmp (any other `$TMPDIR` is left to FileManager). Without
    /// FileManager for the common cases: its URL's `path`, at first use, looked up types by name across
    /// the whole binary — a tenth of a millisecond of a one-request run.
    private static var temporaryPath: String {
        guard let value = getenv("TMPDIR") else { return "/tmp" }
        guard value.pointee == UInt8(ascii: "/") else { return FileManager.default.temporaryDirectory.path }
        var path = String(cString: value)
        while path.utf8.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// `$TMPDIR/reqtop-<uid>`.
    static var userFolderPath: String { temporaryPath + "/reqtop-\(getuid())" }

    /// Whether `path` is a real directory (not a symlink) of this user that no one else may enter,
    /// after taking group and other permissions away from one of ours.
    static func isPrivateFolderOfThisUser(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { return false }
        return info.st_mode & 0o077 == 0 || chmod(path, 0o700) == 0
    }

    /// The per-user folder, made if missing; nil when it is not usable.
    private static let userFolder: String? = {
        let path = userFolderPath
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { return nil }
        return isPrivateFolderOfThisUser(path) ? path : nil
    }()

    /// This process's folder for `kind` (not made here).
    package static func url(for kind: Kind) -> URL {
        if let userFolder { return URL(fileURLWithPath: userFolder + "/\(getpid())-\(kind.rawValue)", isDirectory: true) }
        return URL(fileURLWithPath: temporaryPath + "/reqtop-\(getpid())-\(kind.rawValue)", isDirectory: true)
    }

    /// Makes this process's folder for `kind` (0700) and returns it. The first call of a process also
    /// looks, in the background, for folders that dead processes left in the temp directory itself.
    package static func make(_ kind: Kind) throws -> URL {
        removeTemporaryDirectoryLeftoversOnce
        let folder = url(for: kind)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    // MARK: Folders of dead processes

    /// The per-user folder's dead processes' folders go, once per process: listed here, removed in the
    /// background when there are any (a thread started for nothing was a tenth of a millisecond of a
    /// one-request run).
    package static let removeFoldersOfDeadProcessesOnce: Void = {
        let found = candidates(in: userFolderPath, prefix: "").filter { kill($0.pid, 0) == -1 && errno == ESRCH }
        if !found.isEmpty { DispatchQueue.global(qos: .utility).async { remove(found, from: userFolderPath) } }
    }()

    private static let removeTemporaryDirectoryLeftoversOnce: Void = {
        DispatchQueue.global(qos: .utility).async { removeFoldersOfDeadProcesses(in: temporaryPath, prefix: "reqtop-") }
    }()

    /// Removes the folders in `directory` named `<prefix><pid>-bodies` or `<prefix><pid>-har-entries`
    /// whose process is gone (this user's only). Names are matched on the bytes `readdir` returns,
    /// without a string per entry; each candidate is checked again right before it goes.
    static func removeFoldersOfDeadProcesses(in directory: String, prefix: String) {
        remove(candidates(in: directory, prefix: prefix), from: directory)
    }

    /// The folders in `directory` named like another process's (alive or not).
    private static func candidates(in directory: String, prefix: String) -> [(pid: pid_t, name: String)] {
        if prefix.isEmpty, !isPrivateFolderOfThisUser(directory) { return [] }
        guard let listing = opendir(directory) else { return [] }
        var candidates: [(pid: pid_t, name: String)] = []
        while let entry = readdir(listing) {
            let owner = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                ownerPID(ofFolderNamed: UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]), prefix: prefix)
            }
            if let owner, owner.pid != getpid() { candidates.append(owner) }
        }
        closedir(listing)
        return candidates
    }

    /// Removes the `candidates` of `directory` that are this user's folders of processes that are gone.
    private static func remove(_ candidates: [(pid: pid_t, name: String)], from directory: String) {
        for candidate in candidates {
            let path = directory + "/" + candidate.name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
                  kill(candidate.pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// `<prefix><pid>-bodies` or `<prefix><pid>-har-entries`: the pid and the name; nil for any other name.
    static func ownerPID(ofFolderNamed name: UnsafeRawBufferPointer, prefix: String) -> (pid: pid_t, name: String)? {
        guard name.starts(with: prefix.utf8) else { return nil }
        for kind in Kind.allCases {
            let suffix = "-" + kind.rawValue
            guard name.count > prefix.utf8.count + suffix.utf8.count, name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) else { continue }
            let digits = name.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
            guard digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return (digits.reduce(0) { $0 * 10 + pid_t($1 - 0x30) }, String(decoding: name, as: UTF8.self))
        }
        return nil
    }
}
