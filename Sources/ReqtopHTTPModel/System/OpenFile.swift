import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, read and written whole (short writes continued, interruptions retried),
/// closed once — by `close()` or when the last reference goes away. Foundation's `FileHandle`
/// without Foundation.
public final class OpenFile: @unchecked Sendable { // used by one owner at a time (isOpen is not locked)
    public let descriptor: Int32
    private var isOpen = true

    /// Takes ownership of `descriptor`.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Opens an existing file for reading.
    public convenience init(forReadingAtPath path: String) throws { try self.init(path, O_RDONLY) }
    /// Opens an existing file for writing from its start (not truncated).
    public convenience init(forWritingAtPath path: String) throws { try self.init(path, O_WRONLY) }
    /// Opens an existing file for reading and writing.
    public convenience init(forUpdatingAtPath path: String) throws { try self.init(path, O_RDWR) }

    private convenience init(_ path: String, _ flags: Int32) throws {
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(errno, path: path) }
        self.init(descriptor: fd)
    }

    deinit { if isOpen { Glibc.close(descriptor) } }

    /// Writes every byte.
    public func write(_ data: some DataProtocol) throws {
        for region in data.regions {
            try region.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Self.error(errno, path: nil)
                    }
                    offset += written
                }
            }
        }
    }

    /// Up to `count` bytes from the current offset (fewer only at the end of the file).
    public func read(upToCount count: Int) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, path: nil)
            }
            if got == 0 { break }
            filled += got
        }
        return Data(bytes.prefix(filled))
    }

    /// Moves the offset to `offset` bytes from the start.
    public func seek(toOffset offset: UInt64) throws {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw Self.error(errno, path: nil) }
    }

    /// Closes the descriptor (again is a no-op).
    public func close() throws {
        guard isOpen else { return }
        isOpen = false
        guard Glibc.close(descriptor) == 0 || errno == EINTR else { throw Self.error(errno, path: nil) }
    }

    private static func error(_ code: Int32, path: String?) -> CocoaError {
        var info: [String: any Sendable] = ["NSUnderlyingError": POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)]
        if let path { info["NSFilePath"] = path }
        return CocoaError(code == ENOENT ? .fileNoSuchFile : code == EACCES ? .fileReadNoPermission : .fileWriteUnknown, userInfo: info)
    }
}
