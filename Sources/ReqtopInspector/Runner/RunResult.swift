import ReqtopNetworking
import ReqtopRequestLists

/// Identifies one request of one run: which list, which repetition, which spec.
public struct RunItem: Sendable, Hashable, CustomStringConvertible {
    /// Index of the list in the runner's input.
    public var list: Int
    /// 0-based repetition (`--repeat`).
    public var iteration: Int
    /// Index of the spec in its list.
    public var spec: Int

    public init(list: Int, iteration: Int, spec: Int) {
        self.list = list
        self.iteration = iteration
        self.spec = spec
    }

    public var description: String { "list \(list + 1) request \(spec + 1) (round \(iteration + 1))" }
}

/// How one request of a run ended.
public enum RunResultStatus: Sendable, Hashable {
    /// A response arrived (any HTTP status).
    case completed(status: Int)
    /// The transfer failed (connection refused, timeout, …).
    case failed(TransferError)
    /// The task was cancelled (`cancelAll()`, SIGINT).
    case cancelled
    /// Never sent: it could not be resolved, e.g. the request it depends on failed. `reason` says why.
    case notSent(reason: String)
}

/// The result of one request of a run.
public struct RunResult: Sendable {
    public var item: RunItem
    /// The task, when one was created (nil for `.notSent`).
    public var task: TaskID?
    /// The spec's name, if any.
    public var name: String?
    public var method: String
    /// The resolved URL, or the URL template when the request was not sent.
    public var url: String
    public var status: RunResultStatus
    /// Body bytes received.
    public var bytes: Int64
    /// Total time in milliseconds, when known.
    public var durationMilliseconds: Double?

    public init(item: RunItem, task: TaskID?, name: String?, method: String, url: String, status: RunResultStatus,
                bytes: Int64 = 0, durationMilliseconds: Double? = nil) {
        self.item = item
        self.task = task
        self.name = name
        self.method = method
        self.url = url
        self.status = status
        self.bytes = bytes
        self.durationMilliseconds = durationMilliseconds
    }
}

/// What a run produced.
public struct RunOutcome: Sendable {
    /// One result per request that was sent or refused, in the order they finished.
    public var results: [RunResult]
    /// True when `cancelAll()` stopped the run; requests not yet started have no result.
    public var wasCancelled: Bool

    public init(results: [RunResult], wasCancelled: Bool) {
        self.results = results
        self.wasCancelled = wasCancelled
    }
}
