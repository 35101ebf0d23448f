import Dispatch

/// The session-level delegate. It owns nothing of a task: for every engine callback it looks the
/// task delegate up in the registry by task identifier and forwards the call to the task's
/// transfer state. It also batches the
/// events of one engine pass so that observers get one hop per pass, not one per event.
final class SessionDelegate { // created and used on the engine thread (by `EngineLoop`) only
    let registry: TaskDelegateRegistry
    let bus: EventBus
    private let serializationQueue = DispatchQueue(label: "reqtop.serialization", attributes: .concurrent)
    private var pending = CoalescingEventQueue()
    /// Tasks that finished in this pass, with what their transfers produced.
    private var finishedTasks: [FinishedTask] = []
    private typealias FinishedTask = (delegate: TaskDelegate, finished: FinishedTransfer)

    init(registry: TaskDelegateRegistry, bus: EventBus) {
        self.registry = registry
        self.bus = bus
    }

    private func emit(_ kind: TaskEvent.Kind, for task: TaskID) {
        EngineThread.check()
        pending.append(TaskEvent(task: task, kind: kind))
    }

    /// The state a task's transfers share, created when the engine starts the task; nil when the
    /// task has already ended (cancelled while the start command was on its way).
    func makeState(for task: TaskID) -> TransferState? {
        registry.peek(task).map(TransferState.init(delegate:))
    }

    // MARK: Transfer callbacks (engine thread)
    // Each looks the task delegate up first: a task removed from the registry gets no more callbacks.

    func didReceiveHeaderLine(_ bytes: UnsafeRawBufferPointer, transfer: Transfer) -> Bool {
        // A field line only adds to the head being read: the registry (a lock and a lookup) is asked
        // at the lines that post, the status line and the blank line that ends the head.
        if transfer.state.takeHeaderField(bytes) { return true }
        guard isRegistered(transfer) else { return false }
        return transfer.state.didReceiveHeadBoundary(bytes) { emit($0, for: transfer.id) }
    }

    func didSendHead(_ bytes: UnsafeRawBufferPointer, transfer: Transfer) {
        guard isRegistered(transfer) else { return }
        transfer.state.didSendHead(bytes) { emit($0, for: transfer.id) }
    }

    func didReceiveBody(_ bytes: UnsafeRawBufferPointer, transfer: Transfer) -> TransferState.BodyWrite {
        guard isRegistered(transfer) else { return .failed }
        if transfer.state.watchesDecodedRatio { transfer.state.encodedReceived = transfer.bodyBytesOnTheWire() }
        let written = transfer.state.didReceiveBody(bytes)
        if written == .taken, transfer.state.messages != nil {
            transfer.state.messages!.feed(bytes) { emit(.message($0), for: transfer.id) }
        }
        return written
    }

    /// The body ended: a message it ended inside is posted (marked incomplete), before the task's end.
    private func finishMessages(of transfer: Transfer) {
        guard transfer.state.messages != nil else { return }
        transfer.state.messages!.finish { emit(.message($0), for: transfer.id) }
        transfer.state.messages = nil
    }

    func readBody(into buffer: UnsafeMutableRawBufferPointer, transfer: Transfer) -> TransferState.BodyRead {
        isRegistered(transfer) ? transfer.state.readBody(into: buffer) : .abort
    }

    func seekBody(to offset: Int64, transfer: Transfer) -> Bool {
        isRegistered(transfer) && transfer.state.seekBody(to: offset)
    }

    func progress(transfer: Transfer, downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64) {
        guard transfer.state.hasProgress(uploaded: uploaded), isRegistered(transfer) else { return }
        transfer.state.progress(downloaded: downloaded, downloadTotal: downloadTotal, uploaded: uploaded,
                                uploadTotal: uploadTotal) { emit($0, for: transfer.id) }
    }

    private func isRegistered(_ transfer: Transfer) -> Bool {
        registry.contains(transfer.id)
    }

    // MARK: Lifecycle (engine thread)

    func transferDidResume(_ task: TaskID) { emit(.resumed, for: task) }
    func transferDidSuspend(_ task: TaskID) { emit(.suspended, for: task) }

    /// The next hop's request when the transfer that just ended was a redirect to follow.
    func redirect(afterFinishing transfer: Transfer, transportError: TransferError?, timings: PhaseTimings) -> TransferRequest? {
        EngineThread.check()
        guard transportError == nil, let delegate = registry.peek(transfer.id), delegate.task.state == .running else { return nil }
        return transfer.state.takeRedirect(timings: timings)
    }

    /// libcurl finished the transfer, successfully or not.
    func transferDidFinish(_ transfer: Transfer, transportError: TransferError?, timings: PhaseTimings?) {
        EngineThread.check()
        guard let delegate = registry.remove(transfer.id) else { return }
        finishMessages(of: transfer)
        let finished = transfer.state.finish(transportError: transportError, timings: timings) { emit($0, for: transfer.id) }
        let outcome: TaskState = finished.error == nil ? .completed : .failed
        do {
            _ = try delegate.task.transition(to: outcome)
            schedule(finished, of: delegate)
        } catch {
            // The user cancelled while the last bytes arrived: cancellation wins.
            schedule(transfer.state.finishCancelled(), of: delegate)
        }
    }

    /// The transfer was removed before it finished (the task is already in the cancelled state).
    func transferWasCancelled(_ transfer: Transfer, timings: PhaseTimings? = nil) {
        EngineThread.check()
        guard let delegate = registry.remove(transfer.id) else { return }
        finishMessages(of: transfer)
        schedule(transfer.state.finishCancelled(timings: timings), of: delegate)
    }

    private func schedule(_ finished: FinishedTransfer, of delegate: TaskDelegate) {
        delegate.stream?.consumer.didFinish(finished.error)
        finishedTasks.append((delegate, finished))
    }

    /// The engine is about to wait for the network: the events observers are done with are freed
    /// now, on the thread that allocated them.
    func beforeSleep() {
        bus.releaseSpentEvents()
    }

    /// End of one engine pass: hand the batch of events to the bus, then the tasks that finished to
    /// serialization (one block each, so they run side by side) — or, when the serializer does not
    /// read the body, straight to the completion queue, one block for a run of tasks sharing it.
    func endOfPass() {
        EngineThread.check()
        if !pending.isEmpty { bus.post(pending.takeAll()) }
        guard !finishedTasks.isEmpty else { return }
        let bus = self.bus
        var sameQueue: [FinishedTask] = []
        for task in finishedTasks {
            if task.delegate.completesOnEngineThread {
                // Its handler is short: here and now, its terminal event after it; what it deferred
                // runs in `afterPass`, once the requests that take the freed slots have gone out.
                if !sameQueue.isEmpty {
                    Self.complete(sameQueue, bus: bus)
                    sameQueue.removeAll()
                }
                let (handler, event) = task.delegate.respond(task.finished)
                handler()
                bus.post(TaskEvent(task: task.delegate.task.id, kind: event))
            } else if task.delegate.serializesOnCompletionQueue {
                if let queue = sameQueue.first?.delegate.completionQueue, queue !== task.delegate.completionQueue {
                    Self.complete(sameQueue, bus: bus)
                    sameQueue.removeAll()
                }
                sameQueue.append(task)
            } else {
                serializationQueue.async {
                    let (handler, event) = task.delegate.respond(task.finished)
                    task.delegate.completionQueue.async {
                        handler()
                        bus.post(TaskEvent(task: task.delegate.task.id, kind: event))
                    }
                }
            }
        }
        if !sameQueue.isEmpty { Self.complete(sameQueue, bus: bus) }
        finishedTasks.removeAll(keepingCapacity: true)
    }

    /// After a pass, once the transfers that took the slots it freed have sent their requests: the
    /// events so far, then the work the handlers that ran on the engine thread deferred
    /// (`SessionManager.afterCompletion`: a runner's next requests). That work — resolving and creating
    /// the requests after them — falls in the wait for the responses, not between one response and the
    /// next request.
    func afterPass() {
        EngineThread.check()
        if !pending.isEmpty { bus.post(pending.takeAll()) }
        EngineThread.runAfterPassWork()
    }

    /// On the completion queue the tasks share, in order: each one's response, handler, terminal event.
    private static func complete(_ tasks: [FinishedTask], bus: EventBus) {
        tasks[0].delegate.completionQueue.async {
            for task in tasks {
                let (handler, event) = task.delegate.respond(task.finished)
                handler()
                bus.post(TaskEvent(task: task.delegate.task.id, kind: event))
            }
        }
    }
}
