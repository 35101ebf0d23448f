import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The few socket calls the proxy makes, with errors as text. Descriptors are non-blocking and
/// close-on-exec.
enum Socket {
    /// A listening TCP socket on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    static func listen(host: String, port: Int) throws(ProxyError) -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &info)
        guard status == 0, let first = info else {
            throw ProxyError("cannot listen on \(host): \(String(cString: gai_strerror(status))) (give an IP address)")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ProxyError("cannot create a socket: \(errnoText())") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let text = errnoText()
            close(fd)
            throw ProxyError("cannot listen on \(host):\(port): \(text)")
        }
        guard Glibc.listen(fd, 1024) == 0 else {
            let text = errnoText()
            close(fd)
            throw ProxyError("cannot listen on \(host):\(port): \(text)")
        }
        return (fd, boundPort(fd))
    }

    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    enum Accepted {
        case accepted(Int32)
        /// Nobody is waiting (or the attempt failed for that client alone).
        case none
        /// The process or system has no descriptor left: the client waits in the listen queue.
        case outOfDescriptors
    }

    /// Accepts one pending connection (non-blocking, close-on-exec).
    static func accept(_ listener: Int32) -> Accepted {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM ? .outOfDescriptors : .none }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .accepted(fd)
    }

    /// Connects to `host`:`port` (name resolution included), blocking the calling thread at most
    /// `timeout` seconds; the descriptor comes back non-blocking.
    static func connect(host: String, port: Int, timeout: Double) throws(ProxyError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &info)
        guard status == 0 else { throw ProxyError("cannot resolve \(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(info) }
        var lastError = "no address"
        var next = info
        while let address = next {
            next = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&entry, 1, Int32(max(1, min(timeout, 3600)) * 1000)) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        var one: Int32 = 1
                        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        return fd
                    }
                    lastError = String(cString: strerror(error))
                } else {
                    lastError = "timed out after \(timeout) s"
                }
            } else {
                lastError = errnoText()
            }
            close(fd)
        }
        throw ProxyError("cannot connect to \(host):\(port): \(lastError)")
    }

    /// A pipe whose read end wakes a `poll` (both ends non-blocking, close-on-exec).
    static func wakePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Why the proxy could not do something, in words for the user.
public struct ProxyError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The status a client gets for it (400 unless said otherwise).
    let status: Int
    init(_ description: String, status: Int = 400) {
        self.description = description
        self.status = status
    }
}

extension String {
    /// The text of a NUL-terminated C buffer.
    init(cBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
