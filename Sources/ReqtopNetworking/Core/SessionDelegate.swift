import Dispatch

/// The session-level delegate. It owns nothing of a task: for every engine callback it looks the
/// task delegate up in the registry by task identifier and forwards the call. It also batches the
/// events of one engine pass so that observers get one hop per pass, not one per event.
final class SessionDelegate { // created and used on the engine thread (by `EngineLoop`) only
    let registry: TaskDelegateRegistry
    let bus: EventBus
    private let serializationQueue = DispatchQueue(label: "reqtop.serialization", attributes: .concurrent)
    private var pending = CoalescingEventQueue()
    private var completions: [@Sendable () -> Void] = []

    init(registry: TaskDelegateRegistry, bus: EventBus) {
        self.registry = registry
        self.bus = bus
    }

    private func emit(_ kind: TaskEvent.Kind, for task: TaskID) {
        EngineThread.check()
        pending.append(TaskEvent(task: task, kind: kind))
    }

    // MARK: Transfer callbacks (engine thread)

    func didReceiveHeaderLine(_ bytes: UnsafeRawBufferPointer, task: TaskID) -> Bool {
        guard let delegate = registry.delegate(for: task) else { return false }
        return delegate.didReceiveHeaderLine(bytes) { emit($0, for: task) }
    }

    func didSendHead(_ bytes: UnsafeRawBufferPointer, task: TaskID) {
        registry.delegate(for: task)?.didSendHead(bytes) { emit($0, for: task) }
    }

    func didReceiveBody(_ bytes: UnsafeRawBufferPointer, task: TaskID) -> Bool {
        registry.delegate(for: task)?.didReceiveBody(bytes) ?? false
    }

    func readBody(into buffer: UnsafeMutableRawBufferPointer, task: TaskID) -> Int? {
        registry.delegate(for: task)?.readBody(into: buffer)
    }

    func seekBody(to offset: Int64, task: TaskID) -> Bool {
        registry.delegate(for: task)?.seekBody(to: offset) ?? false
    }

    func progress(task: TaskID, downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64) {
        registry.delegate(for: task)?.progress(downloaded: downloaded, downloadTotal: downloadTotal,
                                               uploaded: uploaded, uploadTotal: uploadTotal) { emit($0, for: task) }
    }

    // MARK: Lifecycle (engine thread)

    func transferDidResume(_ task: TaskID) { emit(.resumed, for: task) }
    func transferDidSuspend(_ task: TaskID) { emit(.suspended, for: task) }

    /// The next hop's request when the transfer that just ended was a redirect to follow.
    func redirect(afterFinishing task: TaskID, transportError: TransferError?, timings: PhaseTimings) -> TransferRequest? {
        EngineThread.check()
        guard transportError == nil, let delegate = registry.peek(task), delegate.task.state == .running else { return nil }
        return delegate.takeRedirect(timings: timings)
    }

    /// libcurl finished the transfer, successfully or not.
    func transferDidFinish(_ task: TaskID, transportError: TransferError?, timings: PhaseTimings?) {
        EngineThread.check()
        guard let delegate = registry.remove(task) else { return }
        let finished = delegate.finish(transportError: transportError, timings: timings) { emit($0, for: task) }
        let outcome: TaskState = finished.error == nil ? .completed : .failed
        do {
            _ = try delegate.task.transition(to: outcome)
            schedule(finished, of: delegate)
        } catch {
            // The user cancelled while the last bytes arrived: cancellation wins.
            schedule(delegate.finishCancelled(), of: delegate)
        }
    }

    /// The transfer was removed before it finished (the task is already in the cancelled state).
    func transferWasCancelled(_ task: TaskID) {
        EngineThread.check()
        guard let delegate = registry.remove(task) else { return }
        schedule(delegate.finishCancelled(), of: delegate)
    }

    private func schedule(_ finished: FinishedTransfer, of delegate: TaskDelegate) {
        let bus = self.bus
        let queue = delegate.completionQueue
        let id = delegate.task.id
        completions.append {
            let (handler, event) = delegate.respond(finished)
            queue.async {
                handler()
                bus.post(TaskEvent(task: id, kind: event))
            }
        }
    }

    /// End of one engine pass: hand the batch to the bus, then start serialization of what finished.
    func endOfPass() {
        EngineThread.check()
        if !pending.isEmpty { bus.post(pending.takeAll()) }
        if !completions.isEmpty {
            for completion in completions { serializationQueue.async(execute: completion) }
            completions.removeAll(keepingCapacity: true)
        }
    }
}
