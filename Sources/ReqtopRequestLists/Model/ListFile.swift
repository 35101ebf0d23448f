import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// A long `.http` file read where it lies instead of held in memory: the first parse reads it a
/// window at a time, and a request is read again from its bytes in the file when it is sent
/// (`WrittenRequests`), through a window of `windowSize` bytes (1 MB) — a run of a million requests holds
/// the starts of its requests (8 bytes each), not the 48 MB of their text.
///
/// A file that changes after it was read (its size or modification time differ) is not read again:
/// its requests are not sent, saying so (`withBytes` returns nil), never something else.
final class ListFile: @unchecked Sendable { // every mutable field is behind `lock`
    let path: String
    /// The file's size in bytes.
    let size: Int
    /// Where the text starts: 3 after a UTF-8 byte order mark, else 0.
    let start: Int
    private let fd: Int32
    private let modified: timespec
    private let lock = Lock()
    private var window: [UInt8] = []
    private var windowStart = 0
    /// How many bytes of `window` hold the file from `windowStart`.
    private var windowFilled = 0

    /// The bytes read at once (more for a request longer than that).
    let windowSize: Int

    /// The open file, or nil when it cannot be opened or is not a regular file.
    /// - Parameter reading: the file to read when it is not `path` itself (a copy: tests); `path`
    ///   names it in messages and is where relative body files are.
    init?(path: String, reading: String? = nil, windowSize: Int = 1 << 20) {
        self.windowSize = max(16, windowSize)
        let fd = open(reading ?? path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.path = path
        size = Int(info.st_size)
        modified = info.st_mtim
        var bom = [UInt8](repeating: 0, count: 3)
        start = pread(fd, &bom, 3, 0) == 3 && bom == [0xEF, 0xBB, 0xBF] ? 3 : 0
    }

    deinit { close(fd) }

    /// Whether the file is still the one read (same size and modification time).
    var isUnchanged: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && Int(info.st_size) == size
            && info.st_mtim.tv_sec == modified.tv_sec && info.st_mtim.tv_nsec == modified.tv_nsec
    }

    /// Reads up to `buffer.count` bytes at `offset`; the count read (short at the end of the file), or -1.
    func read(at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if n < 0, errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Calls `body` with the bytes of `range` (file offsets); nil when the file changed since it
    /// was read or cannot be read.
    func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        lock.withLock {
            if range.lowerBound < windowStart || range.upperBound > windowStart + windowFilled {
                guard isUnchanged, range.upperBound <= size else { return nil }
                // One buffer, read into again (a new one per window left holes in the heap: megabytes of them).
                let count = min(max(windowSize, range.count), size - range.lowerBound)
                if window.count < count { window = [UInt8](repeating: 0, count: max(count, windowSize)) }
                let read = window.withUnsafeMutableBufferPointer {
                    self.read(at: range.lowerBound, into: UnsafeMutableBufferPointer(rebasing: $0[..<count]))
                }
                guard read == count else {
                    windowFilled = 0
                    return nil
                }
                windowStart = range.lowerBound
                windowFilled = count
            }
            return window.withUnsafeBufferPointer { buffer in
                body(UnsafeBufferPointer(rebasing: buffer[(range.lowerBound - windowStart)..<(range.upperBound - windowStart)]))
            }
        }
    }

    /// The first `count` bytes of the text (after a byte order mark), as text: to tell what the file is.
    func head(_ count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: min(count, size - start))
        let read = bytes.withUnsafeMutableBufferPointer { self.read(at: start, into: $0) }
        return String(decoding: bytes.prefix(max(0, read)), as: UTF8.self)
    }

    /// The whole text (for the lines of a message about it).
    func wholeText() -> String {
        var data = Data(count: size)
        let read = data.withUnsafeMutableBytes { self.read(at: 0, into: $0.bindMemory(to: UInt8.self)) }
        guard read > 0 else { return "" }
        data.count = read
        return String(decoding: data.dropFirst(start), as: UTF8.self)
    }
}
