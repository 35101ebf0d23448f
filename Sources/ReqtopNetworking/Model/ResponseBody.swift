import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A response body: in memory, or in a file (a download's destination, or a body that outgrew the memory cap).
public enum ResponseBody: Sendable {
    case data(Data)
    case file(BodyFile)

    /// The body's size in bytes.
    public var count: Int64 {
        switch self {
        case .data(let data): Int64(data.count)
        case .file(let file): file.size
        }
    }

    /// The whole body in memory (reads the file; use `prefix` for a large body).
    public func loadData() throws -> Data {
        switch self {
        case .data(let data): data
        case .file(let file): try Data(contentsOf: file.url)
        }
    }

    /// The first `maxLength` bytes.
    public func prefix(_ maxLength: Int) throws -> Data {
        switch self {
        case .data(let data): return data.prefix(maxLength)
        case .file(let file):
            return try OpenFile(forReadingAtPath: file.url.path).read(upToCount: maxLength)
        }
    }
}

/// A body stored in a file. A temporary file (a spilled body) is deleted when the last reference goes away.
public final class BodyFile: Sendable {
    public let url: URL
    public let size: Int64
    public let isTemporary: Bool

    init(url: URL, size: Int64, isTemporary: Bool) {
        self.url = url
        self.size = size
        self.isTemporary = isTemporary
    }

    /// A body that is already in a file someone else owns (a download, a kept body): never deleted.
    public convenience init(existing url: URL) {
        let size = FileStatus(path: url.path)?.size ?? 0
        self.init(url: url, size: size, isTemporary: false)
    }

    deinit {
        if isTemporary { try? FileManager.default.removeItem(at: url) }
    }
}
