import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopSync

/// Journals a session as it happens: subscribes to the bus and appends one `EventLine` per event
/// (progress aside; full detail, secrets in clear: the file is private) to an append-only file, on its own queue — the network never waits for it.
/// Each batch of events is one `write(2)`, so a `kill -9` loses at most the batch being written,
/// and a line cut in half is skipped when the journal is read.
///
/// A body over `bodyLimit` is not written into a line: it is kept beside the journal, in
/// `<id>.bodies/` (`JournalBodies`), and the line names that file in `bodyFile` — so a session
/// killed before it wrote its HAR still has every body, until the session is pruned.
package final class JournalWriter: Sendable {
    package let url: URL
    package let id: String
    private let fd: Int32
    private let bodyLimit: Int
    private let bodies: JournalBodies
    private let queue = DispatchQueue(label: "reqtop.journal")
    private let subscription = Protected<EventBus.Subscription?>(nil)
    private let failure = Protected<String?>(nil)
    /// Bytes written so far, and where every `messageStride`-th message of each task begins: the
    /// Stream tab reads back messages the task no longer holds (`messages(of:from:through:)`).
    private let written = Protected<Int64>(0)
    private let messageOffsets = Protected<[TaskID: [(index: Int, offset: Int64)]]>([:])
    static let messageStride = 256

    /// Opens a new journal in `directory` and starts recording `bus`.
    /// - Parameter bodyLimit: bodies up to this size are kept in the journal; larger ones are named as omitted.
    package init(bus: EventBus, source: String, directory: URL = Journals.directory,
                 bodyLimit: Int = Journals.bodyLimit, now: Date = Date()) throws {
        if directory == Journals.directory { try PrivateFolder.ensure(StateDirectory.url.path, holds: "reqtop's session journals") }
        try PrivateFolder.ensure(directory.path, holds: "session journals (every request, with its credentials)")
        id = Journals.newID(at: now)
        url = directory.appendingPathComponent(id + ".jsonl")
        self.bodyLimit = bodyLimit
        bodies = JournalBodies(folder: Journals.bodiesFolder(of: url), limit: bodyLimit)
        fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: ["NSFilePath": url.path]) }
        // Held while the session writes (released by the kernel if the process dies): pruning skips a locked journal.
        _ = flock(fd, LOCK_EX | LOCK_NB)
        let header = JournalHeader(journal: Journals.formatVersion, session: JournalSessionInfo(
            id: id, started: now.timeIntervalSince1970, source: source, pid: getpid(), version: ReqtopVersion.string))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        append(Array((try encoder.encode(header)) + [0x0A]))
        subscription.withLock { $0 = bus.subscribeBatches(queue: queue) { [self] events in
            var bytes: [UInt8] = []
            let start = written.snapshot
            for event in events where event.name != .progress { // the end event has the byte count
                if case .message(let message) = event.kind, message.index % Self.messageStride == 1 {
                    let offset = start + Int64(bytes.count)
                    messageOffsets.withLock { $0[event.task, default: []].append((message.index, offset)) }
                }
                EventLine(bodies.keepingLargeBodies(of: event), detail: .full(bodyLimit: bodyLimit, keptBy: "journal"),
                          redaction: nil).write(to: &bytes)
                bytes.append(0x0A)
            }
            append(bytes)
        } }
    }

    /// Stops recording and closes the file, after every event already posted is written.
    package func close() {
        let current = subscription.withLock { current in defer { current = nil }; return current }
        current?.flush() // every event posted so far reaches the file
        current?.cancel()
        queue.sync {}
        Glibc.close(fd)
    }

    /// Messages `first` … `last` of `task`'s streamed response or WebSocket, read back from the journal
    /// (those written so far), in order; what a task let go of to bound memory. Reads from the last
    /// indexed message at or before `first`, at most `scanLimit` bytes.
    package func messages(of task: TaskID, from first: Int, through last: Int, scanLimit: Int = 64 << 20) -> [StreamMessageLog.Entry] {
        guard first <= last, let start = messageOffsets.withLock({ $0[task]?.last(where: { $0.index <= first })?.offset }) else { return [] }
        let end = written.snapshot
        let reader = open(url.path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return [] }
        defer { Glibc.close(reader) }
        var found: [StreamMessageLog.Entry] = []
        var lines = EventLineReader()
        var pending: [UInt8] = []
        var offset = start
        let marker = Array("\"task\":\(task.rawValue),".utf8)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while offset < end, offset - start < Int64(scanLimit) {
            let n = chunk.withUnsafeMutableBytes { pread(reader, $0.baseAddress, min($0.count, Int(end - offset)), off_t(offset)) }
            guard n > 0 else { break }
            offset += Int64(n)
            pending += chunk[..<n]
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                let line = pending[lineStart..<newline]
                lineStart = newline + 1
                guard line.firstRange(of: marker) != nil, let parsed = EventLine(json: Data(line)),
                      let event = lines.event(from: parsed), event.task == task, case .message(let message) = event.kind else { continue }
                if message.index > last { return found }
                if message.index >= first { found.append(StreamMessageLog.Entry(time: event.time, message: message)) }
            }
            pending.removeFirst(lineStart)
        }
        return found
    }

    /// Why writing stopped, if it did (a full disk): the session goes on without a journal.
    package var writeError: String? { failure.snapshot }

    private func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, failure.snapshot == nil else { return }
        defer { written.withLock { $0 += Int64(bytes.count) } }
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        if !ok { failure.withLock { $0 = "cannot write \(url.path): \(String(cString: strerror(errno)))" } }
    }
}
