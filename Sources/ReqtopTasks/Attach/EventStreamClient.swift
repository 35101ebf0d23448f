import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopSync

/// A reader of an app's event stream (`reqtop attach`): connects to the Unix socket, reads lines
/// on a thread of its own and hands each decoded line to `onLine`; `send` writes a command back.
/// With `follow`, it reconnects when the socket comes back after the app exited, with task ids
/// moved past the previous connection's so nothing collides.
package final class EventStreamClient: Sendable {
    package enum Status: Sendable, Equatable {
        case connecting
        case connected(EventStreamHello)
        /// The app went away (or dropped this reader); `reason` says which.
        case disconnected(reason: String)
    }

    package let path: String
    private let follow: Bool
    /// The socket while connected; every call on it (send, shutdown, close) happens under this lock,
    /// so none reaches a descriptor number the system has given to something else.
    private let fd = Protected<Int32>(-1)
    /// The id offset of the current connection (see `idSpan`).
    private let offset = Protected(0)
    /// The last reply to a command that did not simply succeed, until someone takes it.
    private let reply = Protected<String?>(nil)
    private let stopped = Protected(false)
    private let state = Protected(Status.connecting)
    private let onLine: @Sendable (EventStreamDecoder.Line) -> Void
    private let onStatus: @Sendable (Status) -> Void
    /// Ids of each connection start past this (a reconnected app numbers its tasks from 1 again).
    package static let idSpan = 1_000_000

    package init(path: String, follow: Bool, onStatus: @escaping @Sendable (Status) -> Void = { _ in },
                 onLine: @escaping @Sendable (EventStreamDecoder.Line) -> Void) {
        self.path = path
        self.follow = follow
        self.onLine = onLine
        self.onStatus = onStatus
    }

    package var status: Status { state.snapshot }

    /// Connects and reads until the stream ends (and, with `follow`, reconnects) on its own thread.
    package func start() {
        startThread(named: "reqtop.attach") { [self] in run() }
    }

    /// Connects once, now: nil, or why the socket cannot be reached.
    package static func probe(_ path: String) -> String? {
        let fd = connect(to: path)
        guard fd >= 0 else { return "cannot connect to \(path): \(String(cString: strerror(errno)))" }
        close(fd)
        return nil
    }

    package func stop() {
        stopped.withLock { $0 = true }
        fd.withLock { if $0 >= 0 { shutdown($0, Int32(SHUT_RDWR)) } }
    }

    /// The id offset of the current connection's tasks.
    package var currentIDOffset: Int { offset.snapshot }

    /// What the app answered to a command, when it was not "done" (taken once).
    package func takeReply() -> String? { reply.withLock { value in defer { value = nil }; return value } }

    /// Sends `{"command":…,"task":…}` for a task of the current connection; false when not connected.
    @discardableResult
    package func send(_ command: String, task: TaskID, idOffset: Int) -> Bool {
        let line = #"{"command":"\#(command)","task":\#(task.rawValue - idOffset)}"# + "\n"
        return fd.withLock { current in
            guard current >= 0 else { return false }
            return Array(line.utf8).withUnsafeBytes { Glibc.send(current, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
        }
    }

    private func set(_ status: Status) {
        state.withLock { $0 = status }
        if case .disconnected(let reason) = status { reply.withLock { $0 = "disconnected: \(reason)" } } // said once on the bottom line
        onStatus(status)
    }

    private func run() {
        var generation = 0
        // Each connection's ids get their own span below reqtop's own (1e9): at most 999 of them.
        while !stopped.snapshot, generation < 999 {
            let socket = Self.connect(to: path)
            if socket < 0 {
                if !follow {
                    set(.disconnected(reason: "cannot connect to \(path): \(String(cString: strerror(errno)))"))
                    return
                }
                usleep(300_000) // waiting for the app to come back: nothing to wait on but the clock
                continue
            }
            offset.withLock { $0 = generation * Self.idSpan }
            fd.withLock { $0 = socket }
            let (reason, greeted) = read(socket, decoder: EventStreamDecoder(idOffset: generation * Self.idSpan))
            fd.withLock { current in
                close(current)
                current = -1
            }
            // A stream that ended before its hello (an app stopping as we connected) carried no
            // task: following, it is not a connection of its own; wait for the app to come back.
            if follow, !greeted, !stopped.snapshot {
                usleep(300_000)
                continue
            }
            set(.disconnected(reason: reason))
            generation += 1
            if !follow { return }
        }
    }

    /// Reads lines until the stream ends; returns why it ended and whether the app said hello.
    private func read(_ socket: Int32, decoder: EventStreamDecoder) -> (reason: String, greeted: Bool) {
        var decoder = decoder
        var greeted = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending = Data()
        while !stopped.snapshot {
            let n = Glibc.read(socket, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return (stopped.snapshot ? "detached" : "the app closed the stream (it exited?)", greeted) }
            pending.append(contentsOf: buffer[..<n])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                let decoded = decoder.decode(Data(line))
                if case .hello(let hello) = decoded {
                    greeted = true
                    set(.connected(hello))
                }
                if case .reply(let task, let outcome) = decoded, outcome != "done" { reply.withLock { $0 = "the app, about task \(task): \(outcome)" } }
                onLine(decoded)
                if case .overflow(let why) = decoded { return ("the app dropped this reader: \(why)", greeted) }
            }
        }
        return ("detached", greeted)
    }

    private static func connect(to path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { errno = ENAMETOOLONG; return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        if !ok {
            let code = errno
            close(fd)
            errno = code
            return -1
        }
        return fd
    }

    /// Where apps put their sockets by default: `$XDG_RUNTIME_DIR/reqtop/` (else `/tmp/reqtop-UID/`).
    package static var defaultDirectory: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/reqtop" }
        return "/tmp/reqtop-\(getuid())"
    }

    /// The sockets in the default directory, newest first.
    package static func sockets(in directory: String = defaultDirectory) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".sock") }.map { directory + "/" + $0 }.sorted { a, b in
            let ma = FileStatus(path: a)?.modified ?? .distantPast
            let mb = FileStatus(path: b)?.modified ?? .distantPast
            return ma > mb
        }
    }
}
