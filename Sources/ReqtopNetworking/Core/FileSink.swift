import FoundationEssentials
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

    /// Where this process keeps spilled bodies (`SpillFolders`): one folder, so they can all go at exit.
    static let temporaryFolder: URL = {
        folderMade.withLock { $0 = true }
        return (try? SpillFolders.make(.bodies)) ?? SpillFolders.url(for: .bodies) // if it could not be made, opening a file there says why
    }()

    /// Whether `temporaryFolder` was made (a body was spilled): at exit, a process that spilled
    /// nothing does not look for a folder it never had.
    static let folderMade = Protected(false)

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
