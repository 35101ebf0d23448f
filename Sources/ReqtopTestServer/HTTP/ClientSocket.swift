#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Dispatch

/// Why a connection's I/O ended early.
enum ConnectionEnd: Error {
    /// The peer closed or reset the connection.
    case peerClosed
    /// The server is stopping.
    case serverStopping
    /// Nothing arrived for `ClientSocket.readTimeout` (a stalled or slowloris client).
    case timedOut
}

/// How a timed wait on a connection ended.
enum WaitOutcome: Equatable {
    /// The full time passed.
    case elapsed
    /// The client closed its side (or reset) first.
    case clientClosed
    /// The server began stopping first.
    case serverStopping
}

/// One accepted connection's socket: blocking sends and stop-aware receives and waits.
///
/// Owned by its connection thread; only `shutdown(2)` is called on it from elsewhere (by `stop()`).
struct ClientSocket {
    let fd: Int32
    let stop: StopSignal
    /// A client that sends nothing for this long (in a request, or between requests) is disconnected.
    var readTimeoutMilliseconds: Int32 = 30_000

    /// Receives up to `capacity` bytes, waiting until some arrive. Throws at end of stream, stop, or
    /// after `readTimeoutMilliseconds` without a byte.
    func receive(into buffer: inout [UInt8], capacity: Int = 65536) throws {
        guard try waitReadable(timeoutMilliseconds: readTimeoutMilliseconds) else { throw ConnectionEnd.timedOut }
        var chunk = [UInt8](repeating: 0, count: capacity)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
        guard count > 0 else { throw ConnectionEnd.peerClosed }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// Sends all of `bytes`, blocking while the peer's window is full.
    func send(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw ConnectionEnd.peerClosed
            }
            offset += sent
        }
    }

    func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try send(raw) }
    }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in try send(raw) }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Waits `seconds`, returning early when the client closes its side or the server stops.
    /// Bytes the client sends meanwhile are read and dropped.
    func wait(seconds: Double) -> WaitOutcome {
        // At most a year: 1e11 s, infinity or NaN must not trap converting to nanoseconds.
        let bounded = seconds.isNaN ? 0 : min(max(0, seconds), 365 * 86_400)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(bounded * 1e9)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { return .elapsed }
            let millis = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            do {
                guard try waitReadable(timeoutMilliseconds: millis) else { continue }
            } catch {
                return (error as? ConnectionEnd) == .serverStopping ? .serverStopping : .clientClosed
            }
            var scratch = [UInt8](repeating: 0, count: 4096)
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
            if count <= 0 { return .clientClosed }
        }
    }

    /// Makes the next `close` send a TCP reset instead of a FIN.
    func armReset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Polls the socket and the stop pipe. True when the socket is readable (or hung up),
    /// false on timeout; throws when the server is stopping.
    private func waitReadable(timeoutMilliseconds: Int32) throws -> Bool {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 { throw ConnectionEnd.serverStopping }
            if ready <= 0 { return false }
            if fds[0].revents & Int16(POLLERR) != 0 { throw ConnectionEnd.peerClosed }
            return true
        }
    }
}
