import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopSync

/// An HTTP/1.1 forward proxy whose upstream side is a `SessionManager`: every proxied request is a
/// streaming task of that manager — on its bus with its whole lifecycle, the request head as it
/// went on the wire, the response, timings — and its body streams back to the client as it
/// arrives. CONNECT is tunnelled (and shown as a task of its own) or, with an interception
/// authority, decrypted so each HTTPS request is a task too. One thread polls every client
/// connection; there is no thread per connection.
///
/// ```swift
/// let manager = SessionManager(configuration: ProxyConfiguration.forwardingSession())
/// let proxy = try ForwardProxy(manager: manager, configuration: ProxyConfiguration())
/// // HTTP_PROXY=http://127.0.0.1:\(proxy.port) curl http://example.test/
/// ```
public final class ForwardProxy: Sendable {
    /// The port the proxy listens on.
    public let port: Int
    public let configuration: ProxyConfiguration
    private let control: ProxyControl
    private let threadEnded = DispatchSemaphore(value: 0)

    public init(manager: SessionManager, configuration: ProxyConfiguration = ProxyConfiguration()) throws(ProxyError) {
        guard configuration.credentials != nil || configuration.allowsRemoteClients || ProxyCredentials.isLoopback(configuration.host) else {
            throw ProxyError("refusing to listen on \(configuration.host), which is not a loopback address: anyone who can reach it could "
                             + "send requests from this machine. Require credentials (--proxy-auth USER:PASS), or accept anyone (--allow-remote)")
        }
        let (listener, port) = try Socket.listen(host: configuration.host, port: configuration.port)
        self.port = port
        self.configuration = configuration
        let control = ProxyControl()
        self.control = control
        let threadEnded = self.threadEnded
        startThread(named: "reqtop.proxy") {
            ProxyLoop(listener: listener, manager: manager, configuration: configuration, control: control).run()
            threadEnded.signal()
        }
    }

    /// Stops listening, closes every client connection (their tasks are cancelled) and waits for
    /// the proxy thread to end.
    public func stop() {
        guard control.requestStop() else { return }
        threadEnded.wait()
    }

    deinit { stop() }
}

/// What other threads hand the proxy thread: a stop request, tunnels whose host answered, and the
/// pipe that wakes its `poll`.
final class ProxyControl: Sendable {
    struct Inbox: Sendable {
        var stopping = false
        var stopped = false
        var connected: [(serial: Int, result: Result<Int32, ProxyError>)] = []
    }

    let inbox = Protected(Inbox())
    let wakeRead: Int32
    let wakeWrite: Int32

    init() {
        (wakeRead, wakeWrite) = Socket.wakePipe()
    }

    func wake() {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1) // full pipe: a wake-up is already pending
        }
    }

    /// False when a stop was already requested.
    func requestStop() -> Bool {
        let first = inbox.withLock { inbox -> Bool in
            defer { inbox.stopping = true }
            return !inbox.stopping
        }
        if first { wake() }
        return first
    }

    /// The loop ended: no more wake-ups, then the pipe goes.
    func close() {
        inbox.withLock { $0.stopped = true }
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }
}
