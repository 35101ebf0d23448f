import ReqtopRequestLists

/// How a `RequestListRunner` replays its lists.
package struct RunnerOptions: Sendable, Hashable {
    /// At most this many tasks in flight at once (≥ 1).
    package var concurrency: Int
    /// How many times the whole set of lists is replayed (≥ 1).
    package var repeatCount: Int
    /// Bodies are kept for someone to read (the terminal UI, `--har`); false lets the body of a
    /// request no later one refers to stream through uncollected (a headless run without `--har`).
    package var keepsBodies: Bool
    /// The outcome lists every request's `RunResult`; false keeps only the counts (`RunOutcome.summary`),
    /// so a long headless run does not grow with its length.
    package var keepsResults: Bool
    /// How many requests, beyond `concurrency`, are handed to the manager ahead of their turn, in list
    /// order, so that the engine starts the next one as soon as one ends — without waiting for the
    /// runner's thread to hear of it. Only for a manager whose `maxConcurrentTasks` (and per host) is
    /// `concurrency`: they wait in its engine, `created` but not `resumed` until they start.
    package var lookahead: Int
    /// The caller tops the lookahead up from its own thread (`RequestListRunner.submitAhead()`, which a
    /// headless run calls between prints): the engine thread creates requests itself only once it holds
    /// none beyond those running (the next end would leave a slot empty). Resolving and creating
    /// requests then stays off the engine thread, the one that paces the run. Without it the engine
    /// thread submits each next request.
    package var callerSubmitsAhead = false

    /// Run the lists' scripts (`--no-scripts`: skip them, each said once).
    package var runsScripts = true
    /// Seconds one script may run (`--script-timeout`).
    package var scriptTimeLimit: Double = 5

    /// A headless `reqtop run`'s lookahead, and whether its printing thread submits ahead:
    /// - one at a time, the engine thread creates the next request while it waits for the response
    ///   (time it has), and holds one ahead;
    /// - with several in flight the engine thread is busy — on two cores it paces the run — so the
    ///   printing thread creates them, 64 ahead: about what finish between two of its prints (2 ms at
    ///   30,000 requests/s is 60). Measured at 5,000 requests on loopback: c=1 ahead by the printing
    ///   thread was 5% slower, c=8 engine-thread CPU 12% lower;
    /// - lists with scripts or checks keep the engine submitting, a few ahead (at most 4): a pre-request
    ///   script runs when its request is created, and should not run far ahead of the response
    ///   handlers before it.
    package static func headless(concurrency: Int, scripted: Bool) -> (lookahead: Int, callerSubmitsAhead: Bool) {
        if scripted { return (min(concurrency, 4), false) }
        return concurrency > 1 ? (64, true) : (1, false)
    }

    package init(concurrency: Int = 1, repeatCount: Int = 1, keepsBodies: Bool = true, keepsResults: Bool = true, lookahead: Int = 0) {
        self.concurrency = max(1, concurrency)
        self.repeatCount = max(1, repeatCount)
        self.keepsBodies = keepsBodies
        self.keepsResults = keepsResults
        self.lookahead = max(0, lookahead)
    }
}

/// One list to run and the variables to resolve it with (`--env`, `--var`).
package struct RunnerInput: Sendable {
    package var list: ReqtopRequestLists.RequestList
    package var variables: ReqtopRequestLists.VariableContext

    package init(list: ReqtopRequestLists.RequestList, variables: ReqtopRequestLists.VariableContext = .init()) {
        self.list = list
        self.variables = variables
    }
}
