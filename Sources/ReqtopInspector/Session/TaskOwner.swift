import FoundationEssentials
import ReqtopNetworking
import ReqtopTasks

/// Whoever runs the tasks on screen that this process's manager does not: a saved session's
/// records (`SavedTasks`) or an attached program (`AttachedProgram`). `InspectorModel` asks it about
/// the tasks it owns and acts on its own tasks (replays, new requests) itself.
package protocol TaskOwner: AnyObject {
    /// Whether `id` is one of its tasks.
    func owns(_ id: TaskID) -> Bool
    /// Suspends or resumes one of its tasks, or says why it cannot.
    func suspendOrResume(_ id: TaskID) -> String
    func cancel(_ id: TaskID) -> String
    /// What it has to say since the last call (an attached program's reply), said once.
    func takeNotice() -> String?
}

extension TaskOwner {
    package func takeNotice() -> String? { nil }
}
