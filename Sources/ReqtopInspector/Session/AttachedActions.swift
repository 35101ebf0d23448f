import Foundation
import ReqtopNetworking
import ReqtopSession

/// The inspector's actions over an app's event stream (`reqtop attach`): suspend, resume and
/// cancel go back to the app as commands (when it allowed remote control; otherwise they say how
/// to allow it); replay (`r`), new requests and edits are sent by reqtop's own manager, whose
/// tasks join the table.
package final class AttachedActions: InspectorActions {
    let live: InspectorSession
    let client: EventStreamClient
    /// Task ids at and above this are reqtop's own (replays, new requests).
    let firstLocalID: Int

    package init(live: InspectorSession, client: EventStreamClient, firstLocalID: Int) {
        self.live = live
        self.client = client
        self.firstLocalID = firstLocalID
    }

    private func isLocal(_ id: TaskID) -> Bool { id.rawValue >= firstLocalID }

    private func command(_ name: String, _ id: TaskID) -> String {
        guard case .connected(let hello) = client.status else { return "disconnected: \(id) belongs to the app, which is gone" }
        guard hello.controlAllowed else {
            return "the app does not allow remote control (EventStreamOptions(allowRemoteControl: true)): r replays it here instead"
        }
        let offset = (id.rawValue / EventStreamClient.idSpan) * EventStreamClient.idSpan
        return client.send(name, task: id, idOffset: offset) ? "asked the app to \(name) \(id)" : "could not reach the app"
    }

    package func suspendOrResume(_ id: TaskID) -> String {
        if isLocal(id) { return live.suspendOrResume(id) }
        let state = live.store.record(id)?.state
        return command(state == .suspended ? "resume" : "suspend", id)
    }

    package func cancel(_ id: TaskID) -> String { isLocal(id) ? live.cancel(id) : command("cancel", id) }
    package func replay(_ record: TaskRecord) -> String { live.replay(record) }
    package func send(_ request: HTTPRequest) -> String { live.send(request) }
    package func preview(_ request: HTTPRequest) -> String { live.preview(request) }
    package func saveHAR(to path: String) -> String { live.saveHAR(to: path) }
    package func exportCurl(_ record: TaskRecord, to path: String) -> String { live.exportCurl(record, to: path) }
    package func edit(_ record: TaskRecord) -> String { live.edit(record) }
    package func copy(_ text: String, describing what: String) -> String { live.copy(text, describing: what) }
    package func saveBody(_ record: TaskRecord, to path: String) -> String { live.saveBody(record, to: path) }
    package func bodySoFar(_ id: TaskID) -> Data? { isLocal(id) ? live.bodySoFar(id) : nil }
    package var activity: String? { live.activity }
    package func takeNotice() -> String? { live.takeNotice() }
    package var unfinishedCount: Int { live.manager.registeredTaskCount }
    package var queuedCount: Int { 0 }
}
