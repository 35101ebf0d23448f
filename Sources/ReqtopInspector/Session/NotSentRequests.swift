import ReqtopSync

/// Requests of a replayed list that were not sent (a dependency failed, a value is missing). They
/// have no task, so no row in the table: the header counts them and the bottom line says the
/// latest one's reason. Safe from any thread (the runner reports from its completion queue).
package final class NotSentRequests: Sendable {
    private let state = Protected<(count: Int, notice: String?)>((0, nil))

    package init() {}

    /// How many were reported.
    package var count: Int { state.snapshot.count }

    /// Counts one more, with the line that says which and why.
    package func add(_ line: String) {
        state.withLock { state in
            state.count += 1
            state.notice = line
        }
    }

    /// The latest line not yet shown (once).
    func takeNotice() -> String? {
        state.withLock { state in
            defer { state.notice = nil }
            return state.notice
        }
    }
}
