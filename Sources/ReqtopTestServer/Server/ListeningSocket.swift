#if canImport(Glibc)
import Glibc
#endif

/// A bound, listening IPv4 TCP socket.
struct ListeningSocket: Sendable {
    let fd: Int32
    let port: UInt16

    /// Creates the socket, binds it to `host:port` and starts listening.
    init(host: String, port: UInt16) throws(TestServerError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let literal = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else { throw .invalidHost(host) }

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw .socketFailed(operation: "socket", errno: errno, message: TestServerError.message(for: errno))
        }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))

        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if bound != 0 {
            let code = errno
            close(fd)
            if code == EADDRINUSE { throw .addressInUse(port: port) }
            throw .bindFailed(port: port, errno: code, message: TestServerError.message(for: code))
        }
        guard listen(fd, 1024) == 0 else {
            let code = errno
            close(fd)
            throw .socketFailed(operation: "listen", errno: code, message: TestServerError.message(for: code))
        }

        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
    }
}
