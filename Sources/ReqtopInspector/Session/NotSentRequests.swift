import ReqtopSync

/// Requests of a replayed list that were not sent (a dependency failed, a value is missing). They
/// have no task, so no row in the table: the header counts them, the bottom line says the latest
/// one's reason, and all of them are printed after quitting. Safe from any thread (the runner
/// reports from its completion queue).
package final class NotSentRequests: Sendable {
    private let state = Protected<(lines: [String], unshown: String?)>(([], nil))

    package init() {}

    /// How many were reported.
    package var count: Int { state.snapshot.lines.count }

    /// The line of each, in the order they were reported.
    package var lines: [String] { state.snapshot.lines }

    /// Records one, with the line that says which and why.
    package func add(_ line: String) {
        state.withLock { state in
            state.lines.append(line)
            state.unshown = line + " (all on stderr when you quit)"
        }
    }

    /// The latest line not yet shown (once).
    func takeNotice() -> String? {
        state.withLock { state in
            defer { state.unshown = nil }
            return state.unshown
        }
    }
}
