import FoundationEssentials
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

/// The byte stream of a connection: the socket itself, or TLS over it (a client's with `--intercept`,
/// the host's for a `wss://` WebSocket inside an intercepted tunnel).
protocol ConnectionTransport: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult
    /// Bytes already read from the socket and waiting inside the transport (TLS records):
    /// they must be read without waiting for the descriptor.
    var hasBufferedInput: Bool { get }
    func close()
}

/// A plain TCP connection (closing it closes the socket).
final class SocketTransport: ConnectionTransport {
    let fd: Int32
    /// A reset is a failure (the host's side of a relay), not a close (a client that went away).
    let resetIsFailure: Bool

    init(fd: Int32, resetIsFailure: Bool = false) {
        self.fd = fd
        self.resetIsFailure = resetIsFailure
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        let n = recv(fd, buffer.baseAddress, buffer.count, 0)
        if n > 0 { return .bytes(n) }
        if n == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: false) }
        return errno == ECONNRESET && !resetIsFailure ? .closed : .failed(Socket.errnoText())
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
