import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopScripts
import ReqtopSync

/// Replays request lists on a `SessionManager`.
///
/// - At most `options.concurrency` tasks are in flight; requests are submitted in list order
///   (lists in the order given, the whole set `options.repeatCount` times).
/// - Chaining: a request that uses another's response (`{{login.response.body.$.token}}`) is held
///   until that request finished; later independent requests may start meanwhile. Each round of
///   `--repeat` chains within itself. If the dependency failed, the dependent is not sent and
///   appears in the results as `.notSent` with the resolver's reason.
/// - Every list is validated when the runner is created: an unknown variable throws before
///   anything can be sent.
/// - Scripts (`.http`, JetBrains HTTP Client API; `RunnerOptions.runsScripts`): a request's
///   pre-request scripts run before it is resolved, its response handlers when its response has
///   arrived; a request that uses a variable only scripts set waits for the earlier requests whose
///   scripts may set it. Their tests and logs are posted on the bus as `test` and `log` events of
///   the task, just before its end.
///
/// ```swift
/// let runner = try RequestListRunner(manager: manager, inputs: [RunnerInput(list: list)],
///                                    options: RunnerOptions(concurrency: 4))
/// let outcome = await runner.run()
/// ```
package final class RequestListRunner: Sendable {
    package let manager: SessionManager
    package let options: RunnerOptions
    package let inputs: [RunnerInput]
    /// `resolvers[iteration][list]`: each round resolves (and chains) on its own.
    private let resolvers: [[RequestResolver]]
    /// `dependencies[list][spec]`: the indices of the requests whose responses it uses (only requests that use some).
    private let dependencies: [[Int: Set<Int>]]
    private let state: Protected<RunnerState>
    /// The run's script engine, when a list has scripts to run.
    private let scripts: RequestScripts?
    private let callbacks = Protected(Callbacks())
    /// Serializes submission so tasks are created in list order.
    private let pumpLock = Lock()
    /// `options.callerSubmitsAhead`, unless a list has scripts.
    private let callerSubmits: Bool

    private struct Callbacks {
        var onTaskCreated: (@Sendable (TaskID, HTTPRequest) -> Void)?
        var onNotSent: (@Sendable (RunResult) -> Void)?
    }

    /// Creates a runner and validates every list (variables, references, cycles).
    /// - Throws: the first `RequestListError` found; nothing has been sent.
    package init(manager: SessionManager, inputs: [RunnerInput], options: RunnerOptions = RunnerOptions()) throws(RequestListError) {
        self.manager = manager
        self.inputs = inputs
        self.options = options
        // Each asked once: for a list parsed in full, each answer is a pass over its requests.
        let javaScript = inputs.map { options.runsScripts && $0.list.hasJavaScript }
        let scripts = javaScript.contains(true) || inputs.contains(where: { $0.list.hasChecks })
            ? RequestScripts(timeLimit: options.scriptTimeLimit, runsJavaScript: options.runsScripts) : nil
        self.scripts = scripts
        callerSubmits = options.callerSubmitsAhead && scripts == nil
        var resolvers: [[RequestResolver]] = []
        for _ in 0..<options.repeatCount {
            resolvers.append(inputs.map { RequestResolver(list: $0.list, variables: $0.variables, scriptVariables: scripts?.variables) })
        }
        for resolver in resolvers[0] { try resolver.validate() }
        if let scripted = javaScript.firstIndex(of: true), let why = ScriptRuntime.loadError {
            throw RequestListError(file: inputs[scripted].list.sourcePath, line: 1, column: 1,
                                   message: "this list has scripts, and \(why); --no-scripts sends it without them", lineText: "")
        }
        self.resolvers = resolvers
        dependencies = resolvers[0].map { resolver in
            resolver.requestsWithProducers().merging(resolver.requestsWithScriptProducers()) { $0.union($1) }
        }
        var outstanding: Set<SpecKey> = []
        for iteration in 0..<options.repeatCount {
            for (listIndex, producers) in dependencies.enumerated() {
                for producer in producers.values.joined() { outstanding.insert(SpecKey(list: listIndex, iteration: iteration, spec: producer)) }
            }
        }
        let queue = RunQueue(specCounts: inputs.map { $0.list.specs.count }, rounds: options.repeatCount)
        var initial = RunnerState(queue: queue, outstanding: outstanding)
        initial.keepsResults = options.keepsResults
        state = Protected(initial)
    }

    /// Called right after each task is created, before it is resumed: maps the task to its request.
    package var onTaskCreated: (@Sendable (TaskID, HTTPRequest) -> Void)? {
        get { callbacks.withLock { $0.onTaskCreated } }
        set { callbacks.withLock { $0.onTaskCreated = newValue } }
    }

    /// Called for each request that is not sent (its dependency failed, or it did not resolve).
    package var onNotSent: (@Sendable (RunResult) -> Void)? {
        get { callbacks.withLock { $0.onNotSent } }
        set { callbacks.withLock { $0.onNotSent = newValue } }
    }

    /// The total number of requests the run will try: specs × lists × repeat.
    package var plannedCount: Int { inputs.reduce(0) { $0 + $1.list.specs.count } * options.repeatCount }

    /// Starts the run (once; later calls only add a completion) and calls `completion` when every
    /// request has finished, or, after `cancelAll()`, when the tasks in flight have ended.
    ///
    /// `completion` runs off the engine thread (it may stop the manager), unless `onAnyThread`: then
    /// it may run on the engine thread, right after the last task's terminal event is posted, and
    /// must only hand the outcome over (store it, wake a waiting thread) — no hop to another thread
    /// at the end of a run.
    package func start(onAnyThread: Bool = false, completion: @escaping @Sendable (RunOutcome) -> Void) {
        let first = state.withLock { state -> Bool in
            state.completions.append(RunCompletion(handler: completion, onAnyThread: onAnyThread))
            defer { state.started = true }
            return !state.started
        }
        if first { pump() } else { finishIfDone() }
    }

    /// Runs every list to the end (see `start(completion:)`).
    package func run() async -> RunOutcome {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
    }

    /// Cancels the tasks in flight and starts nothing more (for SIGINT). Safe from any thread.
    package func cancelAll() {
        let tasks = state.withLock { state -> [HTTPTask] in
            state.cancelled = true
            // Newest first: those still waiting for a slot go before a running one frees its slot for them.
            return state.inFlight.values.sorted { $0.id.rawValue > $1.id.rawValue }
        }
        for task in tasks { try? task.cancel() }
        finishIfDone()
    }

    /// Requests of the lists not sent yet (waiting for a slot or for a response they reference).
    package var queuedCount: Int { state.withLock { $0.cancelled ? 0 : $0.queue.count } }

    /// Submits the requests that fit in the concurrency and the lookahead now, on the calling thread
    /// (see `RunnerOptions.callerSubmitsAhead`); when that ends the run, its completions run here too.
    /// Does nothing before `start`, after `cancelAll`, or when a list has scripts (they run off the
    /// caller's thread, which must stay free for signals and printing).
    package func submitAhead() {
        guard callerSubmits, state.withLock({ $0.started && !$0.cancelled }) else { return }
        pump()
    }

    // MARK: Scheduling

    /// Submits ready requests until `ahead` wait beyond the concurrency. The lock is taken per request
    /// (taking one and creating its task go together, so tasks are created in list order): another
    /// thread that pumps waits for one request, not for a whole lookahead.
    private func pump(ahead: Int? = nil) {
        let ahead = ahead ?? options.lookahead
        while pumpLock.withLock({ () -> Bool in
            guard let item = state.withLock({ $0.takeNextReady(limit: options.concurrency, lookahead: ahead, isReady: isReady) }) else {
                return false
            }
            submit(item)
            return true
        }) {}
        finishIfDone()
    }

    /// Whether every request `item` uses the response of has finished (`outstanding`: those that have not).
    private func isReady(_ item: RunItem, _ outstanding: Set<SpecKey>) -> Bool {
        (dependencies[item.list][item.spec] ?? []).allSatisfy { producer in
            !outstanding.contains(SpecKey(list: item.list, iteration: item.iteration, spec: producer))
        }
    }

    private func submit(_ item: RunItem) {
        let resolver = resolvers[item.iteration][item.list]
        let spec = resolver.list.specs[item.spec]
        let before = scripts?.runPreRequest(at: item.spec, of: resolver) ?? RequestScripts.Report()
        var resolved: HTTPRequest
        do throws(RequestListError) {
            if let error = before.error {
                throw RequestListError(file: error.file, line: error.line, column: error.column,
                                       message: "pre-request script failed: \(error.description)", lineText: "")
            }
            resolved = try resolver.resolve(item.spec, spec: spec)
            resolved.headers += before.addedHeaders
        } catch {
            var result = RunResult(item: item, task: nil, name: spec.name, method: spec.method, url: spec.url,
                                   status: .notSent(reason: error.message))
            result.tests = before.tests
            result.scriptError = before.error?.description
            if spec.name != nil { resolver.recordFailure(ofRequestAt: item.spec, reason: "not sent: \(error.message)") }
            state.withLock { $0.finish(item: item, result: result, task: nil) }
            callbacks.withLock { $0.onNotSent }?(result)
            return
        }
        // Only a named request's body can be read by a later one (or by its handlers): it alone is read back (up to a limit).
        let handled = scripts != nil && (spec.checks != nil || spec.scripts.contains { $0.kind == .responseHandler && $0.isJavaScript })
        let serializer = ChainedBodySerializer(limit: spec.name == nil && !handled ? nil : Self.chainedBodyLimit)
        let finished: @Sendable (TaskResponse<ChainedBody>) -> Void = { [self] response in
            self.taskFinished(item: item, name: spec.name, response: response, before: before)
        }
        // Without scripts the handler only records the result and hands over the next request: it runs on
        // the engine thread as the transfer ends (no thread hand-off per request). Scripts run off it.
        var taskOptions = TaskOptions(name: spec.name)
        taskOptions.completesOnEngineThread = scripts == nil
        let task: HTTPTask
        if spec.name == nil, !handled, !options.keepsBodies {
            // Nobody reads this body: it streams through, neither held nor spilled to disk.
            task = manager.streamTask(with: resolved, consumer: DiscardingConsumer(),
                                      streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: false), serializer: serializer,
                                      options: taskOptions, completionHandler: finished)
        } else {
            task = manager.dataTask(with: resolved, serializer: serializer, options: taskOptions, completionHandler: finished)
        }
        callbacks.withLock { $0.onTaskCreated }?(task.id, resolved)
        let cancelled = state.withLock { state -> Bool in
            state.inFlight[task.id] = task
            return state.cancelled
        }
        if cancelled { try? task.cancel() } else { try? task.resume() }
    }

    /// A named request's body is read back for later requests up to this size; a larger one can still
    /// be referenced for its status and headers (its body reference fails, saying why).
    package static let chainedBodyLimit = 16 << 20

    private func taskFinished(item: RunItem, name: String?, response: TaskResponse<ChainedBody>, before: RequestScripts.Report) {
        let resolver = resolvers[item.iteration][item.list]
        let status: RunResultStatus
        switch response.result {
        case .success:
            status = .completed(status: response.head?.status ?? 0)
        case .failure(let error) where error.code == .cancelled:
            // Interrupted while it waited in the engine for its turn (handed over ahead): never started,
            // nothing went out. One that had started (it has timings) or sent a hop is cancelled.
            let neverStarted = response.timings == nil && response.sentHeads.isEmpty && response.head == nil
            status = neverStarted && state.withLock({ $0.cancelled }) ? .interrupted : .cancelled
        case .failure(let error):
            // A response that failed validation or serialization still counts as a response when one arrived.
            status = .failed(error)
        }
        if name != nil {
            switch status {
            case .completed(let code):
                resolver.record(response: RecordedResponse(status: code, headers: response.head?.headers ?? [],
                                                           body: response.value?.data ?? Data(), bodyOmitted: response.value?.omitted),
                                forRequestAt: item.spec)
            case .failed(let error):
                resolver.recordFailure(ofRequestAt: item.spec, reason: error.description)
            case .cancelled:
                resolver.recordFailure(ofRequestAt: item.spec, reason: "cancelled")
            case .notSent(let reason):
                resolver.recordFailure(ofRequestAt: item.spec, reason: reason)
            case .interrupted:
                resolver.recordFailure(ofRequestAt: item.spec, reason: "interrupted")
            }
        }
        // Its response handlers run before the requests that wait for what they set are released.
        var after = RequestScripts.Report()
        if let scripts, case .completed = status, let head = response.head {
            after = scripts.runHandlers(at: item.spec, of: resolver, request: response.request, response: head, body: response.value?.data,
                                        durationMilliseconds: response.timings.flatMap { $0.total >= 0 ? $0.total : nil })
        }
        var result = RunResult(item: item, task: response.task, name: name, method: response.request.method,
                               url: response.request.url.absoluteString, status: status, bytes: response.bytes,
                               durationMilliseconds: response.timings.flatMap { $0.total >= 0 ? $0.total : nil })
        result.tests = before.tests + after.tests
        result.scriptError = (before.error ?? after.error)?.description
        // The scripts' events go out now, before the task's end (which the manager posts right after this
        // handler): the record, the journal and a HAR recorder have the tests when the task ends.
        let events = (before.events + after.events).map { TaskEvent(task: response.task, time: $0.time, kind: $0.kind) }
        if !events.isEmpty { manager.bus.post(events) }
        state.withLock { $0.finish(item: item, result: result, task: response.task) }
        // The handler runs just before the manager posts this task's terminal event: the next task's
        // `created` is posted after it. When the caller submits ahead, the engine creates the next one
        // only once it holds none beyond those running — the next end would leave a slot empty — and
        // only one ahead (the caller fills the lookahead up again).
        if !callerSubmits {
            manager.afterCompletion { self.pump() }
        } else if state.withLock({ $0.inFlightCount <= options.concurrency }) {
            manager.afterCompletion { self.pump(ahead: min(1, self.options.lookahead)) }
        }
    }

    private func finishIfDone() {
        var stranded: [RunResult] = []
        let done = state.withLock { state -> (RunOutcome, [RunCompletion])? in
            guard state.started, state.inFlightCount == 0 else { return nil }
            if !state.cancelled, !state.queue.isEmpty {
                // Nothing in flight and nothing ready: only possible when a dependency can never finish.
                guard !state.queue.contains(where: { isReady($0, state.outstanding) }) else { return nil }
                for item in state.queue {
                    let spec = inputs[item.list].list.specs[item.spec]
                    stranded.append(RunResult(item: item, task: nil, name: spec.name, method: spec.method, url: spec.url,
                                              status: .notSent(reason: "waits for a request that never ran")))
                }
                stranded.forEach { state.record($0) }
                state.queue.removeAll()
            }
            if state.cancelled, !state.queue.isEmpty {
                // Every planned request is in the results: those still waiting were never sent.
                for item in state.queue {
                    let spec = inputs[item.list].list.specs[item.spec]
                    state.record(RunResult(item: item, task: nil, name: spec.name, method: spec.method, url: spec.url,
                                           status: .interrupted))
                }
                state.queue.removeAll()
            }
            let completions = state.completions
            guard !completions.isEmpty else { return nil }
            state.completions.removeAll()
            return (RunOutcome(results: state.results, summary: state.tally.summarize(), wasCancelled: state.cancelled), completions)
        }
        if let onNotSent = callbacks.withLock({ $0.onNotSent }) { stranded.forEach(onNotSent) }
        if let (outcome, completions) = done {
            for completion in completions where completion.onAnyThread { completion.handler(outcome) }
            // Otherwise the run's end is the caller's (it may stop the manager): never on the engine thread.
            let others = completions.filter { !$0.onAnyThread }
            if !others.isEmpty { manager.offEngineThread { for completion in others { completion.handler(outcome) } } }
        }
    }
}

/// A request within one list and one round.
struct SpecKey: Hashable {
    var list: Int
    var iteration: Int
    var spec: Int
}

/// What a finished request leaves for later requests of the list to read.
struct ChainedBody: Sendable {
    var data: Data?
    /// Why `data` is nil though there was a body.
    var omitted: String?
}

/// Reads a body back only when a later request may refer to it (`limit` set), and only up to
/// `limit`: a large body is never loaded whole.
struct ChainedBodySerializer: ResponseSerializer {
    let limit: Int?
    var name: String { limit == nil ? "body" : "chained" }
    var readsBody: Bool { limit != nil }

    func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> ChainedBody {
        guard let limit, let body else { return ChainedBody() }
        guard body.count <= Int64(limit) else {
            return ChainedBody(omitted: "it is \(body.count) bytes, over the \(limit >> 20) MB a run keeps for later requests")
        }
        return ChainedBody(data: try body.loadData())
    }
}
