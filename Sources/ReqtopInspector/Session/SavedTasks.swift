import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks

/// The tasks of a saved session (`reqtop open`): records, not transfers, so suspend and cancel
/// say so; replay (`r`), new requests (`n`) and edits (`e`) are sent by the live manager, whose
/// tasks join the table after the saved ones.
package final class SavedTasks: TaskOwner {
    /// Tasks up to this id are the saved ones.
    let lastSavedID: Int

    package init(lastSavedID: Int) { self.lastSavedID = lastSavedID }

    package func owns(_ id: TaskID) -> Bool { id.rawValue <= lastSavedID }
    package func suspendOrResume(_ id: TaskID) -> String { readOnly(id) }
    package func cancel(_ id: TaskID) -> String { readOnly(id) }
    private func readOnly(_ id: TaskID) -> String { "\(id) is a saved task (read-only): r sends its request again as a new task" }
}
