import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension Error {
    /// What went wrong, in words, for messages: a file error as its path and the system's reason
    /// (`/x/list.http: No such file or directory`), an error with a description as that description.
    /// (Foundation's `localizedDescription` without Foundation's localization tables.)
    public var readableDescription: String {
        if let posix = self as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if !(self is CocoaError), let text = (self as? any LocalizedError)?.errorDescription { return text }
        guard let cocoa = self as? CocoaError else {
            if let described = self as? any CustomStringConvertible { return described.description }
            return "\(self)"
        }
        if let text = cocoa.userInfo["NSLocalizedDescription"] as? String { return text }
        let path = (cocoa.userInfo["NSFilePath"] as? String) ?? (cocoa.userInfo["NSURL"] as? URL)?.path
        let reason: String
        if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            reason = String(cString: strerror(underlying.code.rawValue))
        } else {
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: reason = "No such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: reason = "Permission denied"
            case .fileWriteOutOfSpace: reason = "No space left on device"
            case .fileWriteFileExists: reason = "File exists"
            case .fileReadCorruptFile: reason = "the file is not in the expected format"
            case .fileReadInapplicableStringEncoding: reason = "the file is not text in the expected encoding"
            case .fileWriteInvalidFileName: reason = "invalid file name"
            default: reason = "file error \(cocoa.code.rawValue)"
            }
        }
        return path.map { "\($0): \(reason)" } ?? reason
    }
}
