import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopSync

/// Records a session from the bus and writes it as HAR 1.2 (`--har PATH`): a `TaskStore` that
/// only listens, exported through `SessionExport` — the same entries the TUI's `w` key saves.
///
/// Memory does not grow with the session: as soon as a task and every task created before it have
/// ended, its entries go to a spill file (`EntrySpill`) and its record is dropped, so the store holds
/// only the tasks still running and those that ended after one still running. The HAR itself is
/// written from the spill at the end, when every secret of the session is known — a token sent in a
/// late request is hidden where an early response echoes it, as in a HAR saved at once.
package final class HARRecorder: Sendable {
    private let bus: EventBus
    private let store = TaskStore()
    private let spill = EntrySpill()
    private let subscription = Protected<EventMonitorHost?>(nil)
    /// What the HAR hides (the session's secrets are registered with it when it is written).
    private let secrets: SecretPolicy

    package init(bus: EventBus, secrets: SecretPolicy) {
        self.bus = bus
        self.secrets = secrets
    }

    /// Starts listening; tasks created from now on are recorded.
    package func start() {
        let subscription = store.observe(bus) { [store, spill] in spill.add(store.removeEndedPrefix()) }
        self.subscription.withLock { $0 = subscription }
    }

    /// Stops listening once every recorded task has ended (its last event is posted just after
    /// its completion handler ran), waiting at most `timeout` seconds for that.
    package func stop(timeout: Double = 3) {
        store.waitUntilSettled(timeout: timeout)
        subscription.withLock({ $0 })?.stop()
    }

    /// Tasks whose records are still in memory: running ones, and ended ones behind a running one.
    package var heldTaskCount: Int { store.allRecords.count }

    /// One entry per finished task that got a response, in creation order (read back from the spill).
    package func entries() throws -> [HARExportEntry] {
        try spill.entries() + SessionExport.harEntries(from: store.allRecords)
    }

    /// Writes the HAR, one entry in memory at a time (see `HARStreamWriter` for symlinks, devices
    /// and folders). Tasks still in the store — after one that had not ended — come last, in order.
    @discardableResult
    package func write(to url: URL) throws -> SessionExport.HARSaveSummary {
        spill.add(store.removeEndedPrefix())
        return try spill.writeHAR(to: url.path, then: store.allRecords, secrets: secrets)
    }
}

/// The HAR entries of ended tasks, oldest first, kept on disk (`EntrySpillCodec` records in
/// this process's `SpillFolders` folder, which later runs remove if this process dies), with
/// the secret values they carry kept in memory to redact the HAR when it is written. Thread-safe.
final class EntrySpill: Sendable {
    private struct State {
        var handle: OpenFile?
        var path: String?
        /// Entries kept in memory when no spill file could be made.
        var inMemory: [HARExportEntry] = []
        var failure: String?
        var secrets: Set<String> = []
        var tasks = 0
        var omittedBodies = 0
    }

    private let state = Protected(State())

    private static let folder = SpillFolders.url(for: .harEntries)

    /// Spills the entries of `records` (ended ones; others have none).
    func add(_ records: [TaskRecord]) {
        guard !records.isEmpty else { return }
        state.withLock { state in
            for record in records {
                let entries = Self.take(record, into: &state)
                if !entries.isEmpty { Self.append(entries, to: &state) }
            }
        }
    }

    /// The record's entries, counted, with the secret values they carry noted.
    private static func take(_ record: TaskRecord, into state: inout State) -> [HARExportEntry] {
        let entries = SessionExport.harEntries(from: [record])
        guard !entries.isEmpty else { return [] }
        state.secrets.formUnion(SessionExport.secretValues(of: record))
        state.tasks += 1
        state.omittedBodies += entries.count { $0.comment == SessionExport.omittedBodyComment }
        return entries
    }

    private static func append(_ entries: [HARExportEntry], to state: inout State) {
        if state.handle == nil, state.path == nil, state.failure == nil {
            do {
                let path = try SpillFolders.make(.harEntries).appendingPathComponent("\(UUID().uuidString).entries").path
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteNoPermission)
                }
                state.handle = try OpenFile(forUpdatingAtPath: path)
                state.path = path
            } catch {
                state.failure = "\(error.readableDescription)"
            }
        }
        guard let handle = state.handle else { return state.inMemory += entries }
        do {
            var chunk: [UInt8] = []
            for entry in entries { EntrySpillCodec.append(entry, to: &chunk) }
            try handle.write(chunk)
        } catch {
            state.inMemory += entries // a full disk loses nothing already recorded: the rest stays in memory
        }
    }

    /// Every spilled entry, read back (for tests and `HARRecorder.data()`).
    func entries() throws -> [HARExportEntry] {
        var all: [HARExportEntry] = []
        try state.withLock { state in
            try Self.readSpill(state) { all.append($0) }
            all += state.inMemory
        }
        return all
    }

    /// Writes the HAR at `path`: every secret registered first, then the spilled entries in order and
    /// those of `remaining` (not spilled).
    func writeHAR(to path: String, then remaining: [TaskRecord], secrets: SecretPolicy) throws -> SessionExport.HARSaveSummary {
        try state.withLock { state in
            let last = remaining.map { Self.take($0, into: &state) }
            secrets.register(state.secrets)
            let writer = try HARStreamWriter(path: path, creator: (name: "reqtop", version: ReqtopVersion.string), secrets: secrets)
            do {
                try Self.readSpill(state) { try writer.append([$0]) }
                try writer.append(state.inMemory)
                for entries in last { try writer.append(entries) }
                try writer.finish()
            } catch {
                writer.cancel()
                throw error
            }
            return SessionExport.HARSaveSummary(tasks: state.tasks, omittedBodies: state.omittedBodies)
        }
    }

    /// Reads the spill file from its start, one entry at a time.
    private static func readSpill(_ state: State, _ body: (HARExportEntry) throws -> Void) throws {
        guard let path = state.path, let reader = try? OpenFile(forReadingAtPath: path) else { return }
        defer { try? reader.close() }
        var buffer: [UInt8] = []
        while true {
            let chunk = try reader.read(upToCount: 1 << 20)
            buffer.append(contentsOf: chunk)
            let used = try buffer.withUnsafeBytes { try EntrySpillCodec.decode($0, body) }
            buffer.removeFirst(used)
            if chunk.isEmpty {
                guard buffer.isEmpty else { throw EntrySpillCodec.Malformed() } // the spill was cut short
                return
            }
        }
    }

    deinit {
        state.withLock { state in
            try? state.handle?.close()
            if let path = state.path { try? FileManager.default.removeItem(atPath: path) }
            rmdir(Self.folder.path) // when no other recorder of this process has a file there
        }
    }
}
