import FoundationEssentials
import ReqtopSync

/// A handle to one request. Created suspended; `resume()`, `suspend()` and `cancel()` go through its manager.
public final class HTTPTask: Sendable, CustomStringConvertible {
    public let id: TaskID
    public let kind: TaskKind
    public let request: HTTPRequest
    public let name: String?
    // Strong: a task keeps its manager (and engine) alive; the registry lets go of the task when it ends.
    let manager: SessionManager
    private let lifecycle = Protected(Lifecycle())

    struct Lifecycle {
        var state = TaskState.suspended
        /// Whether the engine has been handed the transfer (on the first resume).
        var submitted = false
    }

    init(id: TaskID, kind: TaskKind, request: HTTPRequest, name: String?, manager: SessionManager) {
        self.id = id
        self.kind = kind
        self.request = request
        self.name = name
        self.manager = manager
    }

    /// The current state.
    public var state: TaskState { lifecycle.withLock { $0.state } }

    /// Starts the task, or continues it after `suspend()`. Refused unless the task is suspended.
    public func resume() throws(IllegalTransition) { try manager.resume(self) }

    /// Pauses the transfer without closing the connection or re-sending anything. Refused unless running.
    public func suspend() throws(IllegalTransition) { try manager.suspend(self) }

    /// Stops the task for good; its completion handler receives a `cancelled` error. Refused once it has ended.
    public func cancel() throws(IllegalTransition) { try manager.cancel(self) }

    /// Ends a task that was never resumed as failed with `error`, without sending anything (a proxy
    /// refusing a malformed request shows it as failed, saying why). Refused once it has been resumed.
    public func failBeforeSending(_ error: TransferError) throws(IllegalTransition) { try manager.failBeforeSending(self, error) }

    /// While the task runs, the first body bytes received so far (decoded, at most the configuration's
    /// `liveBodyPreviewBytes`); nil once it has ended (its response has the body) or with no preview.
    public var bodyReceivedSoFar: Data? { manager.bodyReceivedSoFar(id) }

    public var description: String {
        "task \(id) \(request.method) \(request.url)"
    }

    /// Applies `next` if the state machine allows it and the engine never had the task.
    func transitionUnsubmitted(to next: TaskState) throws(IllegalTransition) {
        let refused: IllegalTransition? = lifecycle.withLock { life in
            guard !life.submitted, life.state.canTransition(to: next) else { return IllegalTransition(task: id, from: life.state, to: next) }
            life.state = next
            return nil
        }
        if let refused { throw refused }
    }

    /// Applies `next` if the state machine allows it, then runs `effect` with the lifecycle before
    /// the change — still under the lock, so the engine receives commands in transition order.
    @discardableResult
    func transition(to next: TaskState, effect: (Lifecycle) -> Void = { _ in }) throws(IllegalTransition) -> Lifecycle {
        let result: Result<Lifecycle, IllegalTransition> = lifecycle.withLock { life in
            guard life.state.canTransition(to: next) else {
                return .failure(IllegalTransition(task: id, from: life.state, to: next))
            }
            let before = life
            life.state = next
            if next == .running { life.submitted = true }
            effect(before)
            return .success(before)
        }
        return try result.get()
    }
}
