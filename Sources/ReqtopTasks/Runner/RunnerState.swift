import ReqtopNetworking

/// The runner's mutable state, always accessed under its lock.
struct RunnerState {
    /// Requests not yet submitted, in submission order.
    var queue: RunQueue
    /// The requests (per list and round) whose responses others read and that have not finished yet.
    var outstanding: Set<SpecKey>
    var inFlight: [TaskID: HTTPTask] = [:]
    /// Submitted and not finished (includes a task being created, not yet in `inFlight`).
    var inFlightCount = 0
    /// Every result, when the runner keeps them (`RunnerOptions.keepsResults`).
    var results: [RunResult] = []
    var keepsResults = true
    var tally = RunTally()
    var cancelled = false
    var started = false
    var completions: [RunCompletion] = []

    init(queue: RunQueue, outstanding: Set<SpecKey>) {
        self.queue = queue
        self.outstanding = outstanding
    }

    /// Removes and returns the first request whose dependencies have finished, when a slot is free;
    /// with all `limit` slots taken, up to `lookahead` more in strict list order (the next request, if ready).
    mutating func takeNextReady(limit: Int, lookahead: Int = 0, isReady: (RunItem, _ outstanding: Set<SpecKey>) -> Bool) -> RunItem? {
        guard !cancelled, inFlightCount < limit + lookahead else { return nil }
        let outstanding = outstanding
        let item = inFlightCount < limit ? queue.takeFirst(where: { isReady($0, outstanding) })
            : queue.takeFirstIfReady { isReady($0, outstanding) }
        guard let item else { return nil }
        inFlightCount += 1
        return item
    }

    /// Counts a result (and keeps it, when asked to).
    mutating func record(_ result: RunResult) {
        tally.add(result)
        if keepsResults { results.append(result) }
    }

    /// Records the end of a submitted request.
    mutating func finish(item: RunItem, result: RunResult, task: TaskID?) {
        if let task { inFlight[task] = nil }
        inFlightCount -= 1
        record(result)
        outstanding.remove(SpecKey(list: item.list, iteration: item.iteration, spec: item.spec))
    }
}

/// A caller of `RequestListRunner.start`, called back at the run's end.
struct RunCompletion: Sendable {
    let handler: @Sendable (RunOutcome) -> Void
    /// The handler may run on the engine thread (see `start(onAnyThread:completion:)`).
    let onAnyThread: Bool
}
