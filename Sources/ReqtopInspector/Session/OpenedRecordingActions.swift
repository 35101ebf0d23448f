import Foundation
import ReqtopNetworking
import ReqtopTasks

/// The inspector's actions over a saved session (`reqtop open`): its tasks are records, not
/// transfers, so suspend and cancel say so; replay (`r`), new requests (`n`) and edits (`e`) send
/// real requests with a live manager, whose tasks join the table after the saved ones.
package final class OpenedRecordingActions: ForwardingActions {
    /// Tasks up to this id are the saved ones.
    let lastSavedID: Int

    package init(live: InspectorModel, lastSavedID: Int) {
        self.lastSavedID = lastSavedID
        super.init(live: live)
    }

    private func isSaved(_ id: TaskID) -> Bool { id.rawValue <= lastSavedID }
    private func readOnly(_ id: TaskID) -> String { "\(id) is a saved task (read-only): r sends its request again as a new task" }

    override package func suspendOrResume(_ id: TaskID) -> String { isSaved(id) ? readOnly(id) : live.suspendOrResume(id) }
    override package func cancel(_ id: TaskID) -> String { isSaved(id) ? readOnly(id) : live.cancel(id) }
    override package func bodySoFar(_ id: TaskID) -> Data? { isSaved(id) ? nil : live.bodySoFar(id) }
}
