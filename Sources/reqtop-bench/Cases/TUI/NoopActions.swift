import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopTasks

/// The inspector's actions, doing nothing: the benchmark only draws.
final class NoopActions: InspectorActions {
    let secrets = SecretPolicy()
    func suspendOrResume(_ id: TaskID) -> String { "" }
    func cancel(_ id: TaskID) -> String { "" }
    func replay(_ record: TaskRecord) -> String { "" }
    func send(_ request: HTTPRequest) -> String { "" }
    func saveHAR(to path: String) -> String { "" }
    func exportCurl(_ record: TaskRecord, to path: String) -> String { "" }
    func edit(_ record: TaskRecord) -> String { "" }
    func copy(_ text: String, describing what: String) -> String { "" }
    func saveBody(_ record: TaskRecord, to path: String) -> String { "" }
    func bodySoFar(_ id: TaskID) -> Data? { nil }
    func preview(_ request: HTTPRequest) -> String { "" }
    var activity: String? { nil }
    func takeNotice() -> String? { nil }
    var unfinishedCount: Int { 0 }
    var queuedCount: Int { 0 }
    var notSentCount: Int { 0 }
}
