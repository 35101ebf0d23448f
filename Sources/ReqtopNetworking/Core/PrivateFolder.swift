import FoundationEssentials
import ReqtopSync
#if canImport(Glibc)
import Glibc
#endif

/// Folders that hold secrets — the interception CA's private key, session journals with
/// credentials, the attach sockets — are private to the user whether reqtop made them or found
/// them: a folder of the user's with group or other permissions is tightened to 0700 (said once on
/// stderr), one owned by someone else or that is a symbolic link is refused. Files in them (the CA
/// key) are held to 0600 the same way.
public enum PrivateFolder {
    /// A folder or file that cannot be made private: why, naming it.
    public struct Refused: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Where "made private" notices go: stderr unless replaced (a test collects them).
    public static let notices = Protected<@Sendable (String) -> Void>({ message in
        writeToStandardError("reqtop: " + message + "\n")
    })

    /// The paths already noticed in this process (each is said once).
    private static let noticed = Protected<Set<String>>([])

    /// Makes `path` (and missing parents) if needed, then checks it is a real directory of this user
    /// with no group or other permissions, tightening them when it is ours. `holds` says what it
    /// holds, for the messages.
    public static func ensure(_ path: String, holds: String) throws(Refused) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw Refused(description: "cannot use \(path) (\(String(cString: strerror(errno))))") }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Refused(description: "cannot create \(path): \(error.readableDescription)")
            }
            guard lstat(path, &info) == 0 else { throw Refused(description: "cannot use \(path) (\(String(cString: strerror(errno))))") }
        }
        try check(path, info: info, kind: S_IFDIR, mode: 0o700, holds: holds)
    }

    /// Checks an existing file the same way (mode 0600); nothing happens when it does not exist.
    public static func ensureFile(_ path: String, holds: String) throws(Refused) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        try check(path, info: info, kind: S_IFREG, mode: 0o600, holds: holds)
    }

    private static func check(_ path: String, info: stat, kind: mode_t, mode: mode_t, holds: String) throws(Refused) {
        let what = kind == S_IFDIR ? "folder" : "file"
        if info.st_mode & S_IFMT == S_IFLNK {
            throw Refused(description: "\(path) is a symbolic link; it would hold \(holds), so reqtop does not follow it: "
                              + "remove the link, or make it a real \(what) of yours")
        }
        guard info.st_mode & S_IFMT == kind else {
            throw Refused(description: "\(path) is not a \(what); it would hold \(holds)")
        }
        guard info.st_uid == getuid() else {
            throw Refused(description: "\(path) belongs to user \(info.st_uid), not to you (\(getuid())); it would hold \(holds), "
                              + "so reqtop does not use it")
        }
        let loose = info.st_mode & 0o077
        guard loose != 0 else { return }
        // A shared folder (sticky, as /tmp) is never reqtop's to close: refused, not changed.
        guard info.st_mode & S_ISVTX == 0 else {
            throw Refused(description: "\(path) is a shared folder (sticky, like /tmp); it would hold \(holds): give reqtop a folder of its own")
        }
        guard chmod(path, mode) == 0 else {
            throw Refused(description: "\(path) is open to others (mode \(String(info.st_mode & 0o777, radix: 8))) and cannot be made "
                              + "private: \(String(cString: strerror(errno)))")
        }
        if noticed.withLock({ $0.insert(path).inserted }) {
            notices.snapshot("made \(path) private (mode \(String(info.st_mode & 0o777, radix: 8)) → \(String(mode, radix: 8))): it holds \(holds)")
        }
    }
}

