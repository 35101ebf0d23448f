import Foundation
import ReqtopNetworking
import ReqtopTasks

/// Actions that hand everything to a live `InspectorModel` — the base of the sessions whose
/// tasks are not all reqtop's own (a saved session, an attached program), which override what
/// acts on a task that belongs elsewhere.
package class ForwardingActions: InspectorActions {
    let live: InspectorModel

    init(live: InspectorModel) { self.live = live }

    package var secrets: SecretPolicy { live.secrets }
    package func suspendOrResume(_ id: TaskID) -> String { live.suspendOrResume(id) }
    package func cancel(_ id: TaskID) -> String { live.cancel(id) }
    package func replay(_ record: TaskRecord) -> String { live.replay(record) }
    package func send(_ request: HTTPRequest) -> String { live.send(request) }
    package func preview(_ request: HTTPRequest) -> String { live.preview(request) }
    package func saveHAR(to path: String) -> String { live.saveHAR(to: path) }
    package func exportCurl(_ record: TaskRecord, to path: String) -> String { live.exportCurl(record, to: path) }
    package func edit(_ record: TaskRecord) -> String { live.edit(record) }
    package func copy(_ text: String, describing what: String) -> String { live.copy(text, describing: what) }
    package func saveBody(_ record: TaskRecord, to path: String) -> String { live.saveBody(record, to: path) }
    package func bodySoFar(_ id: TaskID) -> Data? { live.bodySoFar(id) }
    package var activity: String? { live.activity }
    package func takeNotice() -> String? { live.takeNotice() }
    package var unfinishedCount: Int { live.unfinishedCount }
    package var queuedCount: Int { live.queuedCount }
    package var notSentCount: Int { live.notSentCount }
}
