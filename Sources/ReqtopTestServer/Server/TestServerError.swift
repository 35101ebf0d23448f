#if canImport(Glibc)
import Glibc
#endif

/// Why a ``TestServer`` could not be created.
///
/// Every description names the port (or host) involved so a command-line user can act on it.
package enum TestServerError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The port text is not a number in 0...65535 (the text as given).
    case invalidPort(String)
    /// The host is not an IPv4 address (the text as given).
    case invalidHost(String)
    /// Another socket already listens on the port.
    case addressInUse(port: UInt16)
    /// `bind(2)` failed for another reason, e.g. a privileged port (`EACCES`).
    case bindFailed(port: UInt16, errno: Int32, message: String)
    /// `socket(2)`, `listen(2)` or `pipe(2)` failed.
    case socketFailed(operation: String, errno: Int32, message: String)

    package var description: String {
        switch self {
        case .invalidPort(let text):
            return "port \(text): not a port number (use 0...65535; 0 picks a free port)"
        case .invalidHost(let text):
            return "host \(text): not an IPv4 address (try 127.0.0.1)"
        case .addressInUse(let port):
            return "port \(port): address already in use (pick another port, or 0 for a free one)"
        case .bindFailed(let port, _, let message):
            return "port \(port): \(message)"
        case .socketFailed(let operation, _, let message):
            return "\(operation) failed: \(message)"
        }
    }

    /// The text of `strerror(code)`.
    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }
}
