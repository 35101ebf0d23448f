import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// Options of an event stream.
public struct EventStreamOptions: Sendable {
    /// Bodies up to this many bytes go into the stream (base64); larger ones are named as omitted.
    public var bodyLimit: Int
    /// Readers may suspend, resume and cancel this manager's tasks (`{"command":"cancel","task":3}`).
    public var allowRemoteControl: Bool
    /// A reader that falls this far behind loses progress lines; at twice this it gets a final
    /// `overflow` line and is dropped (at once if it does not read that line within 30 s): the app
    /// never waits for a reader and its memory stays bounded.
    public var readerBufferLimit: Int
    /// What the stream hides: secrets are redacted unless the policy says otherwise.
    public var secrets: SecretPolicy

    public init(bodyLimit: Int = 64 << 10, allowRemoteControl: Bool = false, readerBufferLimit: Int = 4 << 20,
                secrets: SecretPolicy = SecretPolicy()) {
        self.bodyLimit = bodyLimit
        self.allowRemoteControl = allowRemoteControl
        self.readerBufferLimit = readerBufferLimit
        self.secrets = secrets
    }
}

extension SessionManager {
    /// Publishes this manager's events as JSON Lines on a Unix domain socket at `path` (mode 0600):
    /// a `hello` line, then one line per event (see `EventStreamEncoder`), to every reader that
    /// connects — `reqtop attach PATH` shows them live. It publishes until `stop()`, which closes
    /// the socket and removes the file (its thread keeps it alive until then).
    public func publishEvents(at path: String, options: EventStreamOptions = EventStreamOptions()) throws -> EventPublisher {
        try EventPublisher(manager: self, path: path, options: options)
    }
}

/// Serves a manager's bus to readers on a Unix domain socket. One thread polls the listening
/// socket, every reader (to write what is queued, and read commands) and a wake-up pipe; the bus
/// observer only encodes events and queues bytes, so a slow or stuck reader costs the app nothing
/// but its bounded queue.
public final class EventPublisher: Sendable {
    public let path: String
    private let options: EventStreamOptions
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let readers = Protected<[Int32: Reader]>([:])
    private let hello: String
    private let subscription = Protected<EventBus.Subscription?>(nil)
    private let stopped = Protected(false)
    /// Signalled when the loop has closed everything and removed the socket file.
    private let finished = DispatchSemaphore(value: 0)
    /// Guards the wake-up pipe: nothing writes to it once the loop has closed it.
    private let wakeClosed = Protected(false)
    private weak let manager: SessionManager?

    /// Bytes queued for one reader, and whether (since when) it is being dropped.
    private struct Reader {
        var pending = Data()
        var overflowed: Double?
        /// Command bytes read so far (up to a newline).
        var incoming = Data()
    }

    init(manager: SessionManager, path: String, options: EventStreamOptions) throws {
        self.path = path
        self.options = options
        self.manager = manager
        listenFD = try Self.listen(at: path)
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            close(listenFD)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        for fd in pipeFDs { Self.makeNonBlocking(fd) }
        var helloLine = JSONObjectWriter()
        helloLine.string("control", options.allowRemoteControl ? "allowed" : "refused")
        helloLine.string("event", "hello")
        helloLine.number("pid", Int(getpid()))
        helloLine.string("process", ProcessInfo.processInfo.processName)
        helloLine.number("schema", 1)
        helloLine.number("started", Date().timeIntervalSince1970)
        hello = helloLine.finished() + "\n"
        let limit = options.bodyLimit
        let secrets = options.secrets
        subscription.withLock { $0 = manager.bus.subscribeBatches(queue: DispatchQueue(label: "reqtop.publisher")) { [weak self] events in
            // Nothing is encoded that no reader would take: none connected, every one dropped (a stalled
            // reader stays connected until it reads its last line, or for 30 s), progress lines while
            // every reader is behind.
            // A batch can hold thousands of events: it goes out in slices, each after asking again.
            guard let self else { return }
            let redaction = secrets.redaction
            var start = events.startIndex
            while start < events.endIndex {
                let takes = self.whatReadersTake()
                guard takes != .nothing else { return }
                let slice = events[start..<min(start + Self.eventsPerSlice, events.endIndex)]
                start = slice.endIndex
                var lines: [(line: String, isProgress: Bool)] = []
                lines.reserveCapacity(slice.count)
                for event in slice {
                    let isProgress = event.name == .progress
                    if isProgress && takes == .allButProgress { continue }
                    lines.append((EventStreamEncoder.line(for: event, bodyLimit: limit, redaction: redaction) + "\n", isProgress))
                }
                self.counts.withLock { $0 += lines.count }
                self.publish(lines)
            }
        } }
        startThread(named: "reqtop.publisher") { [self] in run() }
    }

    deinit { stop() }

    /// Where an app named `name` puts its socket unless told otherwise:
    /// `$XDG_RUNTIME_DIR/reqtop/NAME-PID.sock`, else `/tmp/reqtop-UID/NAME-PID.sock` (`reqtop attach` lists both).
    public static func defaultPath(for name: String) -> String {
        "\(defaultFolder)/\(name)-\(getpid()).sock"
    }

    /// `$XDG_RUNTIME_DIR/reqtop`, else `/tmp/reqtop-UID`: reqtop's own folder, kept private.
    static var defaultFolder: String {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return runtime.map { $0 + "/reqtop" } ?? "/tmp/reqtop-\(getuid())"
    }

    /// Lines encoded so far, for every reader together (a dropped reader adds none).
    package var encodedLineCount: Int { counts.snapshot }
    private let counts = Protected(0)

    /// Returns once every event posted before the call has been handled (encoded for the readers, or not).
    package func flush() {
        subscription.withLock { $0 }?.flush()
    }

    /// How many readers are connected now.
    public var readerCount: Int { readers.withLock { $0.count } }

    /// Stops publishing: readers are disconnected and the socket file removed before it returns
    /// (so an app may exit right after).
    public func stop() {
        let first = stopped.withLock { wasStopped in defer { wasStopped = true }; return !wasStopped }
        guard first else { return }
        subscription.withLock { $0?.cancel(); $0 = nil }
        wake()
        _ = finished.wait(timeout: .now() + 2)
    }

    // MARK: Bus side

    /// How many events are encoded between two looks at what the readers take.
    private static let eventsPerSlice = 64

    /// Which lines some reader would queue now (`publish` decides again for each reader).
    private enum Takes {
        case nothing, allButProgress, all
    }

    private func whatReadersTake() -> Takes {
        let limit = options.readerBufferLimit
        return readers.withLock { readers in
            var takes = Takes.nothing
            for reader in readers.values where reader.overflowed == nil {
                if reader.pending.count <= limit { return .all }
                takes = .allButProgress
            }
            return takes
        }
    }

    private func publish(_ lines: [(line: String, isProgress: Bool)]) {
        let limit = options.readerBufferLimit
        let now = Date().timeIntervalSince1970
        readers.withLock { readers in
            for fd in Array(readers.keys) where readers[fd]?.overflowed == nil {
                for (line, isProgress) in lines {
                    let pending = readers[fd]!.pending.count
                    // Behind: progress goes first (the completed line still says how much arrived).
                    if isProgress && pending > limit { continue }
                    if pending + line.utf8.count > limit * 2 {
                        readers[fd]!.pending.append(contentsOf: Array(#"{"event":"overflow","reason":"the reader fell too far behind; this stream ends here"}"#.utf8) + [0x0A])
                        readers[fd]!.overflowed = now
                        break
                    }
                    readers[fd]!.pending.append(contentsOf: line.utf8) // in place: no copy of the queue
                }
            }
        }
        wake()
    }

    private func wake() {
        wakeClosed.withLock { closed in
            guard !closed else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    // MARK: The poll loop

    private func run() {
        while !stopped.snapshot {
            let current = readers.withLock { readers in readers.map { (fd: $0.key, wantsWrite: !$0.value.pending.isEmpty) } }
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += current.map { pollfd(fd: $0.fd, events: Int16(POLLIN) | ($0.wantsWrite ? Int16(POLLOUT) : 0), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 1000) >= 0 || errno == EINTR else { break }
            if fds[1].revents != 0 { drainWakeups() }
            if fds[0].revents & Int16(POLLIN) != 0 { accept() }
            // A dropped reader that has not read its last line in 30 s goes without it.
            let now = Date().timeIntervalSince1970
            for fd in readers.withLock({ $0.filter { ($0.value.overflowed ?? now) < now - 30 }.map(\.key) }) { drop(fd) }
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !readCommands(entry.fd) { drop(entry.fd); continue }
                if entry.revents & Int16(POLLOUT) != 0 { flush(entry.fd) }
            }
        }
        // No new reader first: a following reader that sees its stream end reconnects at once, and
        // would otherwise land in the backlog of a socket nobody accepts on any more.
        close(listenFD)
        unlink(path)
        for fd in readers.withLock({ Array($0.keys) }) { drop(fd) }
        wakeClosed.withLock { closed in
            closed = true
            close(wakeRead)
            close(wakeWrite)
        }
        finished.signal()
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func accept() {
        let fd = Glibc.accept(listenFD, nil, nil)
        guard fd >= 0 else { return }
        Self.makeNonBlocking(fd)
        readers.withLock { $0[fd] = Reader(pending: Data(hello.utf8)) }
        flush(fd)
    }

    /// Writes what the reader has queued, as far as its socket takes it; drops an overflowed
    /// reader once its last line is out.
    private func flush(_ fd: Int32) {
        let (bytes, overflowed) = readers.withLock { ($0[fd]?.pending ?? Data(), $0[fd]?.overflowed != nil) }
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 {
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { drop(fd) }
            return
        }
        let done = readers.withLock { readers -> Bool in
            guard readers[fd] != nil else { return false }
            readers[fd]!.pending.removeFirst(written)
            return readers[fd]!.pending.isEmpty
        }
        if done && overflowed { drop(fd) }
    }

    /// Reads command lines; false when the reader has gone.
    private func readCommands(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        if n == 0 { return false }
        if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
        var lines: [Data] = []
        readers.withLock { readers in
            guard var reader = readers[fd] else { return }
            reader.incoming.append(contentsOf: buffer[..<n])
            while let newline = reader.incoming.firstIndex(of: 0x0A) {
                lines.append(reader.incoming[reader.incoming.startIndex..<newline])
                reader.incoming.removeSubrange(reader.incoming.startIndex...newline)
            }
            if reader.incoming.count > 64 << 10 { reader.incoming.removeAll() } // not a command
            readers[fd] = reader
        }
        for line in lines { answer(line, to: fd) }
        return true
    }

    /// Runs `{"command":"suspend|resume|cancel","task":N}` when the app allowed remote control.
    private func answer(_ line: Data, to fd: Int32) {
        guard let object = try? JSONValue(parsing: line), let command = object["command"]?.stringValue,
              case let .number(number)? = object["task"], let id = Int(number) else { return }
        var reply = JSONObjectWriter()
        reply.string("command", command)
        var outcome = "done"
        if !options.allowRemoteControl {
            outcome = "refused: the app did not allow remote control (EventStreamOptions.allowRemoteControl)"
        } else if let task = manager?.task(withID: TaskID(rawValue: id)) {
            do {
                switch command {
                case "suspend": try task.suspend()
                case "resume": try task.resume()
                case "cancel": try task.cancel()
                default: outcome = "unknown command"
                }
            } catch {
                outcome = "\(error)"
            }
        } else {
            outcome = "task \(id) has already ended"
        }
        reply.string("event", "reply")
        reply.string("outcome", outcome)
        reply.number("task", id)
        readers.withLock { readers in readers[fd]?.pending.append(contentsOf: Array((reply.finished() + "\n").utf8)) }
        flush(fd)
    }

    private func drop(_ fd: Int32) {
        if readers.withLock({ $0.removeValue(forKey: fd) }) != nil { close(fd) }
    }

    // MARK: The socket

    private static func listen(at path: String) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let folder = path.deletingLastPathComponent
        if folder == defaultFolder {
            // reqtop's own folder must be this user's and private: another user who made it first (the
            // /tmp fallback is shared) or a symlink would let someone else control or read the socket.
            try PrivateFolder.ensure(folder, holds: "the sockets programs publish their requests on")
        } else {
            // A folder the program chose (REQTOP_SOCKET=/somewhere/app.sock) is the program's: made if
            // missing, never changed.
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // A socket file left by a process that died is replaced; a live one (another process
        // publishing there) or anything else at the path is not.
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw POSIXError(.EEXIST) }
            if connects(to: &address) { throw POSIXError(.EADDRINUSE) }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Only this user may connect (connecting needs write permission): the stream carries the app's traffic.
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }

    /// Non-blocking and closed on exec.
    private static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Whether something accepts connections at `address` now.
    private static func connects(to address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}
