import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel
import ReqtopNetworking

/// How a relayed task (a CONNECT tunnel, a WebSocket) ends on the bus: its progress each way, then
/// `completed` with the response it had, or `failed` saying why — timed from its start, through
/// the host accepting, to now.
struct RelayEnd {
    var task: TaskID
    var started: Double
    var connectedAt: Double?
    var head: HTTPResponseHead?
    var sent: Int64
    var received: Int64
    /// What the `completed` event names as its serializer: `tunnel`, `websocket`.
    var kind: String

    func post(on bus: EventBus, failure: String?, code: TransferError.Code?, closedBeforeAnswer: String) {
        let now = Date().timeIntervalSince1970
        let connect = connectedAt.map { ($0 - started) * 1000 } ?? -1
        let timings = PhaseTimings(dns: -1, connect: connect, tls: -1, send: -1, wait: -1,
                                   receive: connectedAt.map { (now - $0) * 1000 } ?? -1, total: (now - started) * 1000)
        var events = [TaskEvent(task: task, time: now, kind: .progress(TransferProgress(direction: .upload, completed: sent, total: -1))),
                      TaskEvent(task: task, time: now, kind: .progress(TransferProgress(direction: .download, completed: received, total: -1)))]
        if let head, failure == nil {
            events.append(TaskEvent(task: task, time: now, kind: .completed(TaskCompletion(
                response: head, body: nil, bytes: received, timings: timings, redirects: [], serializer: kind,
                serializedValue: nil, serializationError: nil))))
        } else {
            let code: TransferError.Code = code ?? (head == nil ? .cannotConnect : .connectionReset)
            events.append(TaskEvent(task: task, time: now, kind: .failed(TaskFailure(
                error: TransferError(code: code, message: failure ?? closedBeforeAnswer), response: head, bytes: received,
                timings: timings, redirects: []))))
        }
        bus.post(events)
    }
}
