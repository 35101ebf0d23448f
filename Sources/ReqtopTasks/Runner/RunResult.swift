import ReqtopNetworking
import ReqtopRequestLists

/// Identifies one request of one run: which list, which repetition, which spec.
package struct RunItem: Sendable, Hashable, CustomStringConvertible {
    /// Index of the list in the runner's input.
    package var list: Int
    /// 0-based repetition (`--repeat`).
    package var iteration: Int
    /// Index of the spec in its list.
    package var spec: Int

    package init(list: Int, iteration: Int, spec: Int) {
        self.list = list
        self.iteration = iteration
        self.spec = spec
    }

    package var description: String { "list \(list + 1) request \(spec + 1) (round \(iteration + 1))" }
}

/// How one request of a run ended.
package enum RunResultStatus: Sendable, Hashable {
    /// A response arrived (any HTTP status).
    case completed(status: Int)
    /// The transfer failed (connection refused, timeout, …).
    case failed(TransferError)
    /// The task was cancelled (`cancelAll()`, SIGINT).
    case cancelled
    /// Never sent: it could not be resolved, e.g. the request it depends on failed. `reason` says why.
    case notSent(reason: String)
    /// Never sent: the run was interrupted (SIGINT, `cancelAll()`) while it waited for its turn.
    case interrupted
}

/// The result of one request of a run.
package struct RunResult: Sendable {
    package var item: RunItem
    /// The task, when one was created (nil for `.notSent`).
    package var task: TaskID?
    /// The spec's name, if any.
    package var name: String?
    package var method: String
    /// The resolved URL, or the URL template when the request was not sent.
    package var url: String
    package var status: RunResultStatus
    /// Body bytes received.
    package var bytes: Int64
    /// Total time in milliseconds, when known.
    package var durationMilliseconds: Double?
    /// What its scripts checked (`client.test`, `client.assert`).
    package var tests: [TestResult] = []
    /// The located error of a script of it that failed (the request was not sent when it was a pre-request script).
    package var scriptError: String?

    package init(item: RunItem, task: TaskID?, name: String?, method: String, url: String, status: RunResultStatus,
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
package struct RunOutcome: Sendable {
    /// One result per request that was sent or refused, in the order they finished (empty unless
    /// `RunnerOptions.keepsResults`).
    package var results: [RunResult]
    /// The counts over every planned request (kept whether or not `results` are).
    package var summary: RunSummary
    /// True when `cancelAll()` stopped the run; requests not yet started have no result.
    package var wasCancelled: Bool

    package init(results: [RunResult], summary: RunSummary? = nil, wasCancelled: Bool) {
        self.results = results
        self.summary = summary ?? RunSummary(results: results)
        self.wasCancelled = wasCancelled
    }
}
