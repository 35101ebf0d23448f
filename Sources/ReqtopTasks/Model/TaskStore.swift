import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopSync

/// The inspector's model: a bus observer and the only owner of what the screens show —
/// one record per task with its timeline, an event log, marks, and session aggregates.
/// Screens read it; they never keep task data of their own.
package final class TaskStore: Sendable {
    struct State {
        /// Every task: its row, and its record (whole, or packed once it has been finished a while).
        var table: RecordTable
        var index: [TaskID: Int] = [:]
        var counts: [TaskState: Int] = [:]
        var latency = LatencyHistogram()
        var rates = RateWindow()
        var bytesReceived: Int64 = 0
        var log: [TaskEvent] = []
        var logStart = 0
        var marks: Set<TaskID> = []
        /// The longest request name seen (0: no task has one), for the table's NAME column.
        var longestName = 0
        var longestMethod = 0
        /// A response came over HTTP/2 or later: the table marks the version beside the status.
        var spokeNewerHTTP = false
        /// The tasks each connection carried, in the order they ended.
        var connections: [TransferConnection: [TaskID]] = [:]
        /// The largest task id seen (ids of an attached program and reqtop's own differ in size).
        var largestID = 0
        var version = 0
        /// Bytes of response bodies kept (memory and spill files), and which tasks hold them, oldest first.
        var retainedBodyBytes: Int64 = 0
        var bodyHolders: [TaskID] = []
        var listingCache: (version: Int, filter: TaskFilter, order: TaskOrder, time: Double, listing: TaskListing)?
        /// Tasks seen and not ended yet; `waitUntilSettled` sleeps until it is 0.
        var unfinished = 0
        /// Scripts' tests so far: passed, failed.
        var testCounts = [0, 0]
        var settledWaiters: [DispatchSemaphore] = []
    }

    /// How many lines the event log keeps.
    package static let logCapacity = 1000

    private let state: Protected<State>
    private let onChange: @Sendable () -> Void
    private let queue = DispatchQueue(label: "reqtop.taskstore")
    private let bodyBudget: Int64

    /// - Parameters:
    ///   - bodyBudget: response bodies kept in memory for the Body tab and HAR, in bytes; past it the
    ///     oldest in-memory ones are released, so a long session's memory stays bounded. Bodies in
    ///     files (spilled past the engine's memory cap, downloads) are not counted and are kept.
    ///   - finishedKeptWhole: how many of the newest finished tasks keep their record whole; older
    ///     ones are packed (`RecordTable`) and read back when asked for.
    ///   - onChange: called (on the store's queue) after each batch of events is applied.
    package init(bodyBudget: Int64 = 256 << 20, finishedKeptWhole: Int = 256, onChange: @escaping @Sendable () -> Void = {}) {
        self.bodyBudget = bodyBudget
        state = Protected(State(table: RecordTable(finishedKeptWhole: finishedKeptWhole)))
        self.onChange = onChange
    }

    /// Subscribes the store to `bus` as an `EventMonitor` whose host calls it on the store's own
    /// queue (so `waitUntilSettled` orders with it); it listens until the host is stopped.
    package func observe(_ bus: EventBus) -> EventMonitorHost {
        observe(bus, afterEachBatch: {})
    }

    /// `observe(_:)`, calling `afterEachBatch` (on the store's queue) once each batch is applied.
    package func observe(_ bus: EventBus, afterEachBatch: @escaping @Sendable () -> Void) -> EventMonitorHost {
        let host = EventMonitorHost(bus: bus, monitor: Monitor(store: self, afterEachBatch: afterEachBatch), queue: queue)
        host.start()
        return host
    }

    /// The store as a bus observer: each batch applied, then `onChange` and the subscriber's own step.
    private final class Monitor: EventMonitor {
        let store: TaskStore
        let afterEachBatch: @Sendable () -> Void
        init(store: TaskStore, afterEachBatch: @escaping @Sendable () -> Void) {
            self.store = store
            self.afterEachBatch = afterEachBatch
        }

        func receive(_ events: [TaskEvent]) {
            store.apply(events)
            store.onChange()
            afterEachBatch()
        }
    }

    /// Removes and returns the records at the front that have ended, oldest first: for a recorder
    /// that writes tasks out as they end and keeps only the rest. Counts, rates and the log stay.
    package func removeEndedPrefix() -> [TaskRecord] {
        state.withLock { state in
            let count = state.table.rows.prefix { $0.state.isTerminal }.count
            guard count > 0 else { return [] }
            let taken = state.table.removeFirst(count)
            for record in taken {
                state.index[record.id] = nil
                state.marks.remove(record.id)
            }
            state.index = state.index.mapValues { $0 - count }
            let removed = Set(taken.lazy.map(\.id))
            state.bodyHolders.removeAll { id in
                guard removed.contains(id) else { return false }
                if let position = taken.firstIndex(where: { $0.id == id }), case .data(let data)? = taken[position].body {
                    state.retainedBodyBytes -= Int64(data.count)
                }
                return true
            }
            state.connections.removeAll() // (a recorder keeps no finished task: none to show sharing a connection)
            state.listingCache = nil
            state.version &+= 1
            return taken
        }
    }

    /// Applies events in order (the bus observer calls this; tests may too).
    package func apply(_ events: [TaskEvent]) {
        state.withLock { state in
            for event in events { Self.apply(event, to: &state) }
            Self.releaseBodies(beyond: bodyBudget, in: &state)
            state.table.packFinished(index: state.index)
            state.version &+= 1
            if state.unfinished == 0 {
                for waiter in state.settledWaiters { waiter.signal() }
                state.settledWaiters.removeAll()
            }
        }
    }

    private static func apply(_ event: TaskEvent, to state: inout State) {
        if case .created(let description) = event.kind {
            guard state.index[event.task] == nil else { return }
            let record = TaskRecord(id: event.task, name: description.name, kind: description.kind, state: .suspended,
                                    request: description.request, createdAt: event.time)
            state.index[event.task] = state.table.count
            state.table.append(record)
            if let name = description.name { state.longestName = max(state.longestName, name.count) }
            state.longestMethod = max(state.longestMethod, description.request.method.utf8.count)
            state.largestID = max(state.largestID, event.task.rawValue)
            state.counts[.suspended, default: 0] += 1
            state.unfinished += 1
        }
        guard let position = state.index[event.task] else { return }
        var record = state.table.take(at: position)
        let before = record.state
        switch event.kind {
        case .created: break
        case .resumed:
            record.state = .running
            if record.startedAt == nil { record.startedAt = event.time }
        case .suspended:
            record.state = .suspended
        case .cancelled(let partial):
            record.state = .cancelled
            record.endedAt = event.time
            if let partial { Self.keep(partial, in: &record, at: position, state: &state) }
        case .requestSent(let head):
            record.sentHeads.append(head)
        case .redirected(let hop):
            record.redirects.append(hop)
        case .response(let head):
            record.response = Self.sharingURL(head, with: record)
            if head.majorVersion >= 2 { state.spokeNewerHTTP = true }
        case .progress(let progress):
            switch progress.direction {
            case .download:
                state.rates.add(bytes: max(0, progress.completed - record.downloaded), at: event.time)
                state.bytesReceived += max(0, progress.completed - record.downloaded)
                record.downloaded = progress.completed
                record.downloadTotal = progress.total
            case .upload:
                record.uploaded = progress.completed
                record.uploadTotal = progress.total
            }
        case .completed(let completion):
            record.state = .completed
            record.endedAt = event.time
            record.response = Self.sharingURL(completion.response, with: record)
            record.timings = completion.timings
            record.redirects = completion.redirects // now with each hop's timings
            record.body = completion.body
            Self.note(completion.connection, of: &record, at: position, in: &state)
            Self.account(completion.body, of: record.id, in: &state)
            if let sent = completion.sentBody { record.keepStreamedBody(sent) }
            if completion.bytes > record.downloaded {
                state.bytesReceived += completion.bytes - record.downloaded
                record.downloaded = completion.bytes
            }
            state.latency.add(completion.timings.total >= 0 ? completion.timings.total
                              : (event.time - (record.startedAt ?? event.time)) * 1000)
            state.rates.add(requests: 1, at: event.time)
        case .failed(let failure):
            record.state = .failed
            record.endedAt = event.time
            Self.keep(failure, in: &record, at: position, state: &state)
            state.rates.add(requests: 1, at: event.time)
        case .test(let result):
            record.tests.append(result)
            state.testCounts[result.passed ? 0 : 1] += 1
        case .scriptLog(let log):
            record.scriptLogs.append(log)
        case .message(let message):
            // (The record was taken out of the table: its log is held once and grows in place.)
            if record.messages == nil { record.messages = StreamMessageLog() }
            record.messages?.append(message, at: event.time)
        }
        if record.state != before {
            state.counts[before, default: 0] -= 1
            state.counts[record.state, default: 0] += 1
            if record.state.isTerminal, !before.isTerminal { state.unfinished -= 1 }
        }
        record.revision &+= 1
        appendTimeline(event, to: &record)
        if event.name != .progress && event.name != .message { appendLog(event, to: &state) } // (the Stream tab lists messages)
        state.table.put(record, at: position)
    }

    /// What a failed or cancelled task got before it ended: the error, response head, timings,
    /// redirect hops and the partial body.
    private static func keep(_ failure: TaskFailure, in record: inout TaskRecord, at position: Int, state: inout State) {
        record.error = failure.error
        note(failure.connection, of: &record, at: position, in: &state)
        if let sent = failure.sentBody { record.keepStreamedBody(sent) }
        if let response = failure.response { record.response = Self.sharingURL(response, with: record) }
        record.timings = failure.timings
        record.redirects = failure.redirects
        if let body = failure.partialBody {
            record.body = body
            Self.account(body, of: record.id, in: &state)
        }
        if failure.bytes > record.downloaded {
            state.bytesReceived += failure.bytes - record.downloaded
            record.downloaded = failure.bytes
        }
    }

    private static func note(_ connection: TransferConnection?, of record: inout TaskRecord, at position: Int, in state: inout State) {
        guard let connection, record.connection == nil else { return }
        record.connection = connection
        state.connections[connection, default: []].append(record.id)
    }

    /// The head with the record's own `URL` instance when they are equal (no redirect): one URL
    /// object per task instead of two, which matters at 100,000 tasks.
    private static func sharingURL(_ head: HTTPResponseHead, with record: TaskRecord) -> HTTPResponseHead {
        guard head.url == record.url else { return head }
        var shared = head
        shared.url = record.url
        return shared
    }

    /// Counts a body held in memory against the budget. A body in a file (spilled past the memory
    /// cap, or a download) costs no memory: it is kept, not counted.
    private static func account(_ body: ResponseBody?, of task: TaskID, in state: inout State) {
        guard case .data(let data)? = body, !data.isEmpty else { return }
        state.retainedBodyBytes += Int64(data.count)
        state.bodyHolders.append(task)
    }

    private static func releaseBodies(beyond budget: Int64, in state: inout State) {
        var released = 0
        while state.retainedBodyBytes > budget, released < state.bodyHolders.count {
            let task = state.bodyHolders[released]
            released += 1
            guard let position = state.index[task] else { continue }
            state.retainedBodyBytes -= state.table.releaseBody(at: position)
        }
        if released > 0 { state.bodyHolders.removeFirst(released) }
    }

    private static func appendTimeline(_ event: TaskEvent, to record: inout TaskRecord) {
        let detail: TimelineEntry.Detail = switch event.kind {
        case .progress(let progress): .progress(progress)
        case .redirected: .hop(record.redirects.count - 1)
        case .requestSent: .sent(record.sentHeads.count - 1)
        case .completed(let c): .completion(serializer: c.serializer, serializationError: c.serializationError)
        case .test: .test(record.tests.count - 1)
        case .scriptLog: .log(record.scriptLogs.count - 1)
        case .message(let message): .messages(first: message.index, count: 1)
        default: .none
        }
        // Consecutive messages share one entry: its time is the first's, its count grows.
        if case .messages = detail, let last = record.timeline.last, case .messages(let first, let count) = last.detail {
            record.timeline[record.timeline.count - 1] = TimelineEntry(time: last.time, event: .message, detail: .messages(first: first, count: count + 1))
            return
        }
        let entry = TimelineEntry(time: event.time, event: event.name, detail: detail)
        // Consecutive progress of the same direction share one entry (the latest), so memory stays small.
        if case .progress(let progress) = detail, let last = record.timeline.last,
           case .progress(let previous) = last.detail, previous.direction == progress.direction {
            record.timeline[record.timeline.count - 1] = entry
        } else {
            record.timeline.append(entry)
        }
    }

    private static func appendLog(_ event: TaskEvent, to state: inout State) {
        var event = event
        if case .completed(var completion) = event.kind { // the log needs neither the body nor the value
            completion.body = nil
            completion.serializedValue = nil
            event.kind = .completed(completion)
        }
        if state.log.count < logCapacity {
            state.log.append(event)
        } else {
            state.log[state.logStart] = event
            state.logStart = (state.logStart + 1) % logCapacity
        }
    }

    /// Waits until every task seen so far has ended and its events were applied, or `timeout` passes.
    /// Returns whether it settled. Do not call it on the store's queue.
    @discardableResult
    package func waitUntilSettled(timeout: Double) -> Bool {
        queue.sync {} // batches already delivered are applied first
        let waiter = DispatchSemaphore(value: 0)
        let settled = state.withLock { state -> Bool in
            if state.unfinished == 0 { return true }
            state.settledWaiters.append(waiter)
            return false
        }
        return settled || waiter.wait(timeout: .now() + timeout) == .success
    }

    // MARK: Reading

    /// The record of `id`.
    package func record(_ id: TaskID) -> TaskRecord? {
        state.withLock { state in state.index[id].map { state.table.record(at: $0) } }
    }

    /// How stale a filtered or sorted listing may get while tasks keep changing (seconds).
    package static let listingRefreshInterval = 0.25

    /// The rows the table shows. With no filter and id order this is O(1); otherwise it is
    /// recomputed (O(n log n) over precomputed keys) at most every `listingRefreshInterval` while
    /// events arrive.
    package func listing(filter: TaskFilter, order: TaskOrder, now: Double = Date().timeIntervalSince1970) -> TaskListing {
        state.withLock { state in
            if filter.isEmpty, order == .byID { return TaskListing(rows: .all(count: state.table.count)) }
            if let cache = state.listingCache, cache.filter == filter, cache.order == order,
               cache.version == state.version || now - cache.time < Self.listingRefreshInterval {
                return cache.listing
            }
            let count = state.table.count
            // Rows are read in place, their text as bytes: no record is read back.
            var positions = filter.isEmpty ? Array(0..<count)
                : state.table.withRows { rows, text in (0..<count).filter { filter.matches(RowKeys(row: rows.baseAddress! + $0, base: text)) } }
            if order != .byID { positions = order.sorted(positions, of: state.table, now: now) }
            var rowOf = [Int32](repeating: -1, count: count)
            for (row, position) in positions.enumerated() { rowOf[position] = Int32(row) }
            let listing = TaskListing(rows: .positions(order: positions.map { Int32($0) }, rowOf: rowOf))
            state.listingCache = (state.version, filter, order, now, listing)
            return listing
        }
    }

    /// The records of `rows` of a listing (what a virtualized table asks for).
    package func records(_ listing: TaskListing, rows: Range<Int>) -> [TaskRecord] {
        state.withLock { state in
            let rows = rows.clamped(to: 0..<listing.count)
            switch listing.rows {
            case .all: return rows.compactMap { $0 < state.table.count ? state.table.record(at: $0) : nil }
            case .positions(let order, _): return rows.map { state.table.record(at: Int(order[$0])) }
            }
        }
    }

    /// The row of `listing` that shows `id`.
    package func position(of id: TaskID, in listing: TaskListing) -> Int? {
        switch listing.rows {
        case .all(let count): return state.withLock { $0.index[id] }.flatMap { $0 < count ? $0 : nil }
        case .positions(_, let rowOf):
            guard let position = state.withLock({ $0.index[id] }), position < rowOf.count, rowOf[position] >= 0 else { return nil }
            return Int(rowOf[position])
        }
    }

    package func aggregates(now: Double = Date().timeIntervalSince1970) -> Aggregates {
        state.withLock { state in
            let (requests, bytes) = state.rates.rates(now: now)
            return Aggregates(counts: state.counts, total: state.table.count, requestsPerSecond: requests,
                              bytesPerSecond: bytes, p50: state.latency.percentile(0.5), p95: state.latency.percentile(0.95),
                              max: state.latency.count > 0 ? state.latency.max : nil, bytesReceived: state.bytesReceived)
        }
    }

    /// The newest `limit` lines of the event log, oldest first (formatted now, only these).
    package func logLines(limit: Int) -> [String] {
        state.withLock { state in
            let count = state.log.count
            return (max(0, count - limit)..<count).map { i in
                let event = state.log[(state.logStart + i) % max(1, count)]
                return EventDescription.logLine(event, record: state.index[event.task].map { state.table.record(at: $0) })
            }
        }
    }

    // MARK: Marks

    package func toggleMark(_ id: TaskID) {
        state.withLock { state in
            if state.marks.remove(id) == nil { state.marks.insert(id) }
            state.version &+= 1
        }
    }

    package var marks: Set<TaskID> { state.withLock { $0.marks } }

    /// How many of the scripts' tests passed and failed so far.
    package var testTally: (passed: Int, failed: Int) { state.withLock { ($0.testCounts[0], $0.testCounts[1]) } }

    /// Unmarks every task; returns how many were marked.
    @discardableResult
    package func clearMarks() -> Int {
        state.withLock { state in
            defer { state.marks.removeAll(); state.version &+= 1 }
            return state.marks.count
        }
    }

    /// The longest request name of any task (0 when none has a name).
    package var longestName: Int { state.withLock { $0.longestName } }
    /// The longest method of any task, in bytes (the table's METHOD column is as wide, up to a limit).
    package var longestMethod: Int { state.withLock { $0.longestMethod } }
    /// The tasks that used `connection` (one after another, or at once as HTTP/2 streams), in the order they ended.
    package func tasks(on connection: TransferConnection) -> [TaskRecord] {
        state.withLock { state in (state.connections[connection] ?? []).compactMap { state.index[$0].map { state.table.record(at: $0) } } }
    }

    /// Whether a response came over HTTP/2 or later (the STATUS column then has room for `h2`).
    package var spokeNewerHTTP: Bool { state.withLock { $0.spokeNewerHTTP } }

    /// The largest task id, for the width of the id column.
    package var largestID: Int { state.withLock { $0.largestID } }

    /// The newest task (the last created), for follow mode.
    package var newestID: TaskID? { state.withLock { $0.table.rows.last?.id } }

    /// Every record, in creation order. At a million tasks this reads back every packed record at
    /// once: a save iterates `storedRecords()`.
    package var allRecords: [TaskRecord] {
        state.withLock { state in (0..<state.table.count).map { state.table.record(at: $0) } }
    }

    /// How many finished tasks are packed, and the bytes their packed records take.
    package var packed: (tasks: Int, bytes: Int) {
        state.withLock { state in (state.table.rows.lazy.filter { $0.packed != nil }.count, state.table.packedBytes) }
    }

    /// The tasks whose id, state and status (nil before a response) pass `test`, in creation order:
    /// read off the rows, no record read back.
    package func ids(where test: (TaskID, TaskState, Int?) -> Bool) -> [TaskID] {
        state.withLock { state in
            state.table.rows.filter { test($0.id, $0.state, $0.status == 0 ? nil : Int($0.status)) }.map(\.id)
        }
    }

    /// How many tasks the store holds.
    package var count: Int { state.withLock { $0.table.count } }

    /// The records of the tasks there are now (only those of `ids`, when given), in creation order,
    /// read back a few at a time as the sequence is iterated: saving a million tasks never holds
    /// them all. (For a store that keeps every task: `removeEndedPrefix` would move them.)
    package func storedRecords(only ids: Set<TaskID>? = nil) -> StoredRecords {
        StoredRecords(store: self, count: count, ids: ids)
    }

    package struct StoredRecords: Sequence, Sendable {
        let store: TaskStore
        /// The tasks there were when it was made (before `ids` picks among them).
        package let count: Int
        let ids: Set<TaskID>?

        package func makeIterator() -> Iterator { Iterator(records: self) }

        package struct Iterator: IteratorProtocol {
            let records: StoredRecords
            var position = 0
            var chunk: [TaskRecord] = []
            var taken = 0

            package mutating func next() -> TaskRecord? {
                while taken == chunk.count {
                    guard position < records.count else { return nil }
                    let (read, end) = records.store.readBack(from: position, upTo: records.count, only: records.ids)
                    chunk = read
                    taken = 0
                    position = end
                }
                defer { taken += 1 }
                return chunk[taken]
            }
        }
    }

    /// Records from `start` on (of `ids` only, when given), up to 256 positions; and where it stopped.
    private func readBack(from start: Int, upTo end: Int, only ids: Set<TaskID>?) -> ([TaskRecord], Int) {
        state.withLock { state in
            let stop = min(end, start + 256, state.table.count)
            var records: [TaskRecord] = []
            for position in start..<stop where ids?.contains(state.table.rows[position].id) ?? true {
                records.append(state.table.record(at: position, keepingReadBack: false))
            }
            return (records, stop > start ? stop : end)
        }
    }
}
