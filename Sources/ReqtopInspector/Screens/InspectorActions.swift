import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTasks

/// What the inspector asks of the session it shows. Each call returns a short message for the status line.
package protocol InspectorActions: AnyObject {
    /// What copies and exports hide (`--include-secrets`: nothing).
    var secrets: SecretPolicy { get }
    /// Suspends a running task or resumes a suspended one.
    func suspendOrResume(_ id: TaskID) -> String
    func cancel(_ id: TaskID) -> String
    /// Sends the same request again as a new task.
    func replay(_ record: TaskRecord) -> String
    /// Sends a new request typed at the prompt.
    func send(_ request: HTTPRequest) -> String
    /// The request as it will go on the wire (the fields the client adds marked), for the compose screen.
    func preview(_ request: HTTPRequest) -> String
    func saveHAR(to path: String) -> String
    func exportCurl(_ record: TaskRecord, to path: String) -> String
    /// Edits the request as `.http` text in the user's editor and sends the edited copy.
    func edit(_ record: TaskRecord) -> String
    /// Puts `text` on the clipboard (OSC 52), or in a file when the terminal cannot take it; `what` names it.
    func copy(_ text: String, describing what: String) -> String
    /// Writes the task's response body (decoded, as received) to `path`.
    func saveBody(_ record: TaskRecord, to path: String) -> String
    /// The first body bytes a running task has received so far (the Body tab's live view), nil when there are none to show.
    func bodySoFar(_ id: TaskID) -> Data?
    /// Messages `first` … `last` of a task's stream that it no longer holds, read back from the session's
    /// journal; nil when there is no journal to read (`--no-journal`, a saved session, an attached app).
    func earlierMessages(of id: TaskID, from first: Int, through last: Int) -> [StreamMessageLog.Entry]?
    /// Work going on in the background (a HAR being saved), for the bottom line; nil when none.
    var activity: String? { get }
    /// What background work finished with since the last call (said once on the bottom line).
    func takeNotice() -> String?
    /// Tasks not yet ended.
    var unfinishedCount: Int { get }
    /// Requests of a replayed list that have not been sent yet.
    var queuedCount: Int { get }
    /// Requests of a replayed list that will not be sent (a dependency failed, a value is missing).
    var notSentCount: Int { get }
}

extension InspectorActions {
    package func earlierMessages(of id: TaskID, from first: Int, through last: Int) -> [StreamMessageLog.Entry]? { nil }
}
