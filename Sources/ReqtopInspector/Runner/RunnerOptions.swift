import ReqtopRequestLists

/// How a `RequestListRunner` replays its lists.
public struct RunnerOptions: Sendable, Hashable {
    /// At most this many tasks in flight at once (≥ 1).
    public var concurrency: Int
    /// How many times the whole set of lists is replayed (≥ 1).
    public var repeatCount: Int

    public init(concurrency: Int = 1, repeatCount: Int = 1) {
        self.concurrency = max(1, concurrency)
        self.repeatCount = max(1, repeatCount)
    }
}

/// One list to run and the variables to resolve it with (`--env`, `--var`).
public struct RunnerInput: Sendable {
    public var list: ReqtopRequestLists.RequestList
    public var variables: ReqtopRequestLists.VariableContext

    public init(list: ReqtopRequestLists.RequestList, variables: ReqtopRequestLists.VariableContext = .init()) {
        self.list = list
        self.variables = variables
    }
}
