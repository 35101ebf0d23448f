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

    /// Where this process keeps spilled bodies: one folder, so they can all go at exit. Making it
    /// also removes the folders left by reqtop processes that no longer exist (killed with -9):
    /// `cleanUpOnce`, so a run that spills nothing never lists the temp directory.
    static let temporaryFolder: URL = {
        cleanUpOnce
        folderMade.withLock { $0 = true }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(getpid())-bodies")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }()

    /// Folders of dead processes go once per process, in the background (a big temp directory takes
    /// milliseconds to list: not on the way to the body being spilled, nor at exit).
    static let cleanUpOnce: Void = {
        DispatchQueue.global(qos: .utility).async { removeFoldersOfDeadProcesses() }
    }()

    /// Whether `temporaryFolder` was made (a body was spilled): at exit, a process that spilled
    /// nothing does not scan the temp directory only to delete a folder it never had.
    static let folderMade = Protected(false)

    /// Removes `reqtop-PID-bodies` and `reqtop-PID-har-entries` folders (of this user) whose process
    /// is gone. Names are matched on the bytes `readdir` returns: a temp directory of thousands of
    /// entries costs the listing, not a string per entry.
    static func removeFoldersOfDeadProcesses() {
        let temporary = FileManager.default.temporaryDirectory.path
        guard let directory = opendir(temporary) else { return }
        var dead: [String] = []
        while let entry = readdir(directory) {
            guard let name = withUnsafeBytes(of: &entry.pointee.d_name, { bytes in
                ownerPID(ofFolderNamed: UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]))
            }), name.pid != getpid(), kill(name.pid, 0) == -1, errno == ESRCH else { continue }
            dead.append(name.folder)
        }
        closedir(directory)
        for folder in dead {
            let path = temporary + "/" + folder
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// `reqtop-<pid>-bodies` (a process's spilled bodies) or `reqtop-<pid>-har-entries` (a HAR
    /// recorder's spill): the pid and the name; nil for any other name.
    static func ownerPID(ofFolderNamed name: UnsafeRawBufferPointer) -> (pid: pid_t, folder: String)? {
        let prefix = "reqtop-".utf8
        guard name.starts(with: prefix) else { return nil }
        for suffix in ["-bodies", "-har-entries"] where name.count > prefix.count + suffix.utf8.count
            && name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.utf8.count)
            guard digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let pid = digits.reduce(0) { $0 * 10 + pid_t($1 - 0x30) }
            return (pid, String(decoding: name, as: UTF8.self))
        }
        return nil
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
