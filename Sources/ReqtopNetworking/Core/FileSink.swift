import Foundation
import ReqtopSync
#if canImport(Glibc)
import Glibc
#endif

/// A file that a body streams into with plain `write(2)`: a download's destination or a spilled body.
final class FileSink {
    let url: URL
    let isTemporary: Bool
    private var fd: Int32
    private(set) var size: Int64 = 0

    init(url: URL, isTemporary: Bool) throws(TransferError) {
        self.url = url
        self.isTemporary = isTemporary
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw TransferError(code: .fileIO, message: "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Where this process keeps spilled bodies: one folder, so they can all go at exit. (Folders
    /// left by reqtop processes that no longer exist — killed with -9 — go at start: `cleanUpOnce`.)
    static let temporaryFolder: URL = {
        folderMade.withLock { $0 = true }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(getpid())-bodies")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }()

    /// Folders of dead processes go once per process, in the background (a big temp directory takes
    /// milliseconds to list: not on the way to the first request, nor at exit).
    static let cleanUpOnce: Void = {
        DispatchQueue.global(qos: .utility).async { removeFoldersOfDeadProcesses() }
    }()

    /// Whether `temporaryFolder` was made (a body was spilled): at exit, a process that spilled
    /// nothing does not scan the temp directory only to delete a folder it never had.
    static let folderMade = Protected(false)

    /// Removes `reqtop-PID-bodies` folders (of this user) whose process is gone.
    static func removeFoldersOfDeadProcesses() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] {
            // `reqtop-<pid>-bodies` (this folder) and `reqtop-<pid>-har-entries` (a HAR recorder's spill).
            guard name.hasPrefix("reqtop-"), let suffix = ["-bodies", "-har-entries"].first(where: { name.hasSuffix($0) }),
                  let pid = Int32(name.dropFirst("reqtop-".count).dropLast(suffix.count)), pid != getpid() else { continue }
            let path = temporary.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// A new temporary file for a body that outgrew the memory cap.
    static func temporary() throws(TransferError) -> FileSink {
        try FileSink(url: temporaryFolder.appendingPathComponent("body-\(UUID().uuidString)"), isTemporary: true)
    }

    /// Writes all of `bytes`; false on an I/O error.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        size += Int64(bytes.count)
        return true
    }

    /// Closes the file and hands it over as a body.
    func finish() -> BodyFile {
        if fd >= 0 { close(fd); fd = -1 }
        return BodyFile(url: url, size: size, isTemporary: isTemporary)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            if isTemporary { unlink(url.path) }
        }
    }
}
