import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks

/// The tasks of an app's event stream (`reqtop attach`): suspend, resume and cancel go back to the
/// app as commands (when it allowed remote control; otherwise they say how to allow it); replay
/// (`r`), new requests and edits are sent by reqtop's own manager, whose tasks join the table.
package final class AttachedProgram: TaskOwner {
    let client: EventStreamClient
    let store: TaskStore
    /// Task ids at and above this are reqtop's own (replays, new requests).
    let firstLocalID: Int

    package init(client: EventStreamClient, store: TaskStore, firstLocalID: Int) {
        self.client = client
        self.store = store
        self.firstLocalID = firstLocalID
    }

    package func owns(_ id: TaskID) -> Bool { id.rawValue < firstLocalID }

    package func suspendOrResume(_ id: TaskID) -> String {
        command(store.record(id)?.state == .suspended ? "resume" : "suspend", id)
    }

    package func cancel(_ id: TaskID) -> String { command("cancel", id) }
    package func takeNotice() -> String? { client.takeReply() }

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
        if store.record(id)?.state.isTerminal ?? true { return "\(id) has already ended" }
        return client.send(name, task: id, idOffset: offset) ? "asked the app to \(name) \(id)" : "could not reach the app"
    }
}
