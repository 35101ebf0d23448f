import Foundation
import ReqtopNetworking
import ReqtopSession

/// The inspector's actions over a saved session (`reqtop open`): its tasks are records, not
/// transfers, so suspend and cancel say so; replay (`r`), new requests (`n`) and edits (`e`) send
/// real requests with a live manager, whose tasks join the table after the saved ones.
package final class SavedSessionActions: InspectorActions {
    let live: InspectorSession
    /// Tasks up to this id are the saved ones.
    let lastSavedID: Int

    package init(live: InspectorSession, lastSavedID: Int) {
        self.live = live
        self.lastSavedID = lastSavedID
    }

    private func isSaved(_ id: TaskID) -> Bool { id.rawValue <= lastSavedID }
    private func readOnly(_ id: TaskID) -> String { "\(id) is a saved task (read-only): r sends its request again as a new task" }

    package func suspendOrResume(_ id: TaskID) -> String { isSaved(id) ? readOnly(id) : live.suspendOrResume(id) }
    package func cancel(_ id: TaskID) -> String { isSaved(id) ? readOnly(id) : live.cancel(id) }
    package func replay(_ record: TaskRecord) -> String { live.replay(record) }
    package func send(_ request: HTTPRequest) -> String { live.send(request) }
    package func preview(_ request: HTTPRequest) -> String { live.preview(request) }
    package func saveHAR(to path: String) -> String { live.saveHAR(to: path) }
    package func exportCurl(_ record: TaskRecord, to path: String) -> String { live.exportCurl(record, to: path) }
    package func edit(_ record: TaskRecord) -> String { live.edit(record) }
    package func copy(_ text: String, describing what: String) -> String { live.copy(text, describing: what) }
    package func saveBody(_ record: TaskRecord, to path: String) -> String { live.saveBody(record, to: path) }
    package func bodySoFar(_ id: TaskID) -> Data? { isSaved(id) ? nil : live.bodySoFar(id) }
    package var activity: String? { live.activity }
    package func takeNotice() -> String? { live.takeNotice() }
    package var unfinishedCount: Int { live.unfinishedCount }
    package var queuedCount: Int { live.queuedCount }
}
