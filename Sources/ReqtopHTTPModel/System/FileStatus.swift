import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a path (following a symbolic link): read directly, not through
/// `FileManager`'s attribute dictionary, whose value types differ between Foundation builds.
public struct FileStatus: Sendable {
    public let size: Int64
    public let isRegularFile: Bool
    public let isDirectory: Bool
    public let modified: Date

    /// Nil when the path does not exist or cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
