#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Dispatch
import ReqtopSync

/// An embedded HTTP/1.1 server on loopback: httpbin-like endpoints plus fault injection under `/fault/`.
///
/// `init` binds and listens at once (so the port is known and busy ports fail early); `start()` begins
/// accepting on a background thread, one thread per connection; `stop()` closes everything and joins.
/// ``EndpointIndex/text`` (served at `/`) lists every endpoint.
package final class TestServer: Sendable {
    /// The host the server listens on, e.g. `127.0.0.1`.
    package let host: String
    /// The port the server listens on (the one the kernel chose when created with port 0).
    package let port: UInt16

    private let listener: ListeningSocket
    private let stopSignal: StopSignal
    private let state = Protected(State())
    private let threads = DispatchGroup()

    private struct State {
        var started = false
        var stopped = false
        var acceptedConnections = 0
        var log: [LoggedRequest] = []
        /// Open connections by id: their sockets, so `stop()` can shut them down.
        var open: [Int: Int32] = [:]
    }

    /// Binds `host:port` and listens.
    /// - Parameters:
    ///   - host: an IPv4 address (or `localhost`).
    ///   - port: the port, or 0 for a free one (read it back from ``port``).
    ///   - readTimeout: a client that sends nothing for this many seconds is disconnected.
    ///   - keepsBodies: the log keeps each request's body up to `LoggedRequest.keptBodyLimit` (tests
    ///     that compare bodies; `reqtop serve` and the demo keep none).
    package init(host: String = "127.0.0.1", port: UInt16 = 0, readTimeout: Double = 30, keepsBodies: Bool = false) throws(TestServerError) {
        self.readTimeoutMilliseconds = Int32(min(max(0.001, readTimeout), 86_400) * 1000)
        self.keepsBodies = keepsBodies
        let listener = try ListeningSocket(host: host, port: port)
        do {
            stopSignal = try StopSignal()
        } catch {
            close(listener.fd)
            throw error
        }
        self.listener = listener
        self.host = host
        self.port = listener.port
    }

    deinit { stop() }

    /// `http://HOST:PORT`.
    package var baseURL: URL { URL(string: "http://\(host):\(port)")! }

    /// ``baseURL`` followed by `pathAndQuery`, e.g. `server.url("/bytes/1024?seed=7")`.
    package func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery)!
    }

    /// Begins accepting connections on a background thread. Calling it again does nothing.
    package func start() {
        let shouldStart = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        guard shouldStart else { return }
        threads.enter()
        startThread(named: "TestServer accept :\(port)") { [self] in
            acceptLoop()
            threads.leave()
        }
    }

    /// Closes the listener and every open connection, and waits for all server threads to end.
    /// Returns promptly even while stalled or dripping responses are in flight. Idempotent.
    package func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            for fd in state.open.values { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        stopSignal.trigger()
        threads.wait()
        close(listener.fd)
        stopSignal.close()
    }

    /// Every request served so far, in the order they were read.
    package var requestLog: [LoggedRequest] { state.withLock { $0.log } }

    /// How many requests had `path` (compared without the query string).
    package func requestCount(path: String) -> Int {
        state.withLock { $0.log.reduce(0) { $1.path == path ? $0 + 1 : $0 } }
    }

    /// How many TCP connections have been accepted so far.
    package var connectionCount: Int { state.withLock { $0.acceptedConnections } }

    // MARK: - Threads

    private func acceptLoop() {
        var fds = [
            pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopSignal.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 || ready < 0 { return }
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener.fd, $0, &length)
                }
            }
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }  // out of descriptors: do not spin
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // Head and body go out in separate sends: without this, Nagle plus delayed ACKs add ~40 ms.
            var noDelay: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let origin = Self.text(of: address.sin_addr)
            let busy = state.withLock { $0.open.count >= Self.maxConnections }
            if busy {
                // One thread per connection: past the cap, new clients are told so at once, not queued forever.
                let reply = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                _ = reply.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                continue
            }
            let id = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.acceptedConnections += 1
                state.open[state.acceptedConnections] = fd
                threads.enter()
                return state.acceptedConnections
            }
            guard let id else {
                close(fd)
                return
            }
            startThread(named: "TestServer conn", stackSize: 1 << 20) { [self] in
                serveConnection(id: id, fd: fd, origin: origin)
                state.withLock { _ = $0.open.removeValue(forKey: id) }
                close(fd)
                threads.leave()
            }
        }
    }

    private let keepsBodies: Bool
    private let readTimeoutMilliseconds: Int32

    /// At most this many connections at once (each has a thread).
    package static let maxConnections = 256
    /// Request body bytes being read or held by all connections.
    private let bodyBytes = Protected(0)

    private func serveConnection(id: Int, fd: Int32, origin: String) {
        let socket = ClientSocket(fd: fd, stop: stopSignal, readTimeoutMilliseconds: readTimeoutMilliseconds)
        var reader = RequestReader(socket: socket)
        let authority = "\(host):\(port)"
        while true {
            do {
                guard var request = try reader.readHead() else { return }
                if request.header("Expect")?.lowercased() == "100-continue" {
                    try socket.send("HTTP/1.1 100 Continue\r\n\r\n")
                }
                let reserved = RequestReader.bodyReservation(for: request)
                guard bodyBytes.withLock({ held in
                    guard held + reserved <= RequestReader.bodyBudget else { return false }
                    held += reserved
                    return true
                }) else { throw RequestError.busy }
                defer { bodyBytes.withLock { $0 -= reserved } }
                request.body = try reader.readBody(for: request)
                record(request, connectionID: id)
                let exchange = Exchange(request: request, socket: socket, authority: authority, origin: origin)
                switch try Router.respond(to: exchange) {
                case .keepAlive: continue
                case .close: return
                case .reset:
                    socket.armReset()
                    return
                }
            } catch let error as RequestError {
                rejectAndClose(socket: socket, error: error, authority: authority, origin: origin)
                return
            } catch {
                return
            }
        }
    }

    /// Answers a request that could not be read, then closes gracefully so the client sees the answer.
    private func rejectAndClose(socket: ClientSocket, error: RequestError, authority: String, origin: String) {
        let placeholder = ReceivedRequest(method: "GET", target: "/", version: "HTTP/1.0", headers: [])
        let exchange = Exchange(request: placeholder, socket: socket, authority: authority, origin: origin)
        _ = try? exchange.respondText(error.explanation + "\n", status: error.status)
        shutdown(socket.fd, Int32(SHUT_WR))
        _ = socket.wait(seconds: 2)
    }

    private func record(_ request: ReceivedRequest, connectionID: Int) {
        let entry = LoggedRequest(
            method: request.method, target: request.target, path: request.path,
            headers: request.headers, rawHead: request.rawHead, bodySize: request.body.count,
            bodySHA256: SHA256.hex(of: request.body),
            body: keepsBodies && request.body.count <= LoggedRequest.keptBodyLimit ? Data(request.body) : nil, connectionID: connectionID
        )
        state.withLock { $0.log.append(entry) }
    }

    private static func text(of address: in_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
