import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one read or write on a client connection did.
enum IOResult {
    case bytes(Int)
    /// Nothing now: retry when the descriptor is readable (`wantsWrite` false) or writable.
    case wouldBlock(wantsWrite: Bool)
    case closed
    case failed(String)
}

/// The byte stream to a client: the socket itself, or TLS over it (`--intercept`).
protocol ClientTransport: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult
    /// Bytes already read from the socket and waiting inside the transport (TLS records):
    /// they must be read without waiting for the descriptor.
    var hasBufferedInput: Bool { get }
    func close()
}

/// A plain TCP connection.
final class SocketTransport: ClientTransport {
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        let n = recv(fd, buffer.baseAddress, buffer.count, 0)
        if n > 0 { return .bytes(n) }
        if n == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: false) }
        return errno == ECONNRESET ? .closed : .failed(Socket.errnoText())
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if n >= 0 { return .bytes(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: true) }
        return .failed(Socket.errnoText())
    }

    var hasBufferedInput: Bool { false }

    func close() { Glibc.close(fd) }
}
