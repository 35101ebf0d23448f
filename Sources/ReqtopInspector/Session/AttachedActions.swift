import Foundation
import ReqtopNetworking
import ReqtopTasks

/// The inspector's actions over an app's event stream (`reqtop attach`): suspend, resume and
/// cancel go back to the app as commands (when it allowed remote control; otherwise they say how
/// to allow it); replay (`r`), new requests and edits are sent by reqtop's own manager, whose
/// tasks join the table.
package final class AttachedActions: ForwardingActions {
    let client: EventStreamClient
    /// Task ids at and above this are reqtop's own (replays, new requests).
    let firstLocalID: Int

    package init(live: InspectorModel, client: EventStreamClient, firstLocalID: Int) {
        self.client = client
        self.firstLocalID = firstLocalID
        super.init(live: live)
    }

    private func isLocal(_ id: TaskID) -> Bool { id.rawValue >= firstLocalID }

    private func command(_ name: String, _ id: TaskID) -> String {
        guard case .connected(let hello) = client.status else { return "disconnected: \(id) belongs to the app, which is gone" }
        guard hello.controlAllowed else {
            return "the app does not allow remote control (EventStreamOptions(allowRemoteControl: true)): r replays it here instead"
        }
        // Only a task of the current connection that is still going: an earlier run's task 3 is not this run's.
        let offset = client.currentIDOffset
        guard id.rawValue >= offset, id.rawValue < offset + EventStreamClient.idSpan else {
            return "\(id) belongs to an earlier run of the app"
        }
        if live.store.record(id)?.state.isTerminal ?? true { return "\(id) has already ended" }
        return client.send(name, task: id, idOffset: offset) ? "asked the app to \(name) \(id)" : "could not reach the app"
    }

    override package func takeNotice() -> String? { live.takeNotice() ?? client.takeReply() }

    override package func suspendOrResume(_ id: TaskID) -> String {
        if isLocal(id) { return live.suspendOrResume(id) }
        return command(live.store.record(id)?.state == .suspended ? "resume" : "suspend", id)
    }

    override package func cancel(_ id: TaskID) -> String { isLocal(id) ? live.cancel(id) : command("cancel", id) }
    override package func bodySoFar(_ id: TaskID) -> Data? { isLocal(id) ? live.bodySoFar(id) : nil }
    /// Only reqtop's own tasks hold quitting up; the app's go on without it.
    override package var unfinishedCount: Int { live.manager.registeredTaskCount }
    override package var queuedCount: Int { 0 }
}
