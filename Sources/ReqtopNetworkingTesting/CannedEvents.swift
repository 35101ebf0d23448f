import Foundation
import ReqtopNetworking

/// Bus events built the way the networking core posts them, for tests of what observes the bus
/// (a store, a table, a printer) without a network.
public enum CannedEvents {
    public static func created(_ id: Int, _ method: String = "GET", _ url: String, at time: Double = 100, name: String? = nil) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: .created(TaskDescription(
            kind: .data, name: name, request: HTTPRequest(method: method, url: HTTPURL(string: url)!,
                                                          headers: [HTTPHeader(name: "Accept", value: "*/*")]))))
    }
    public static func simple(_ id: Int, _ kind: TaskEvent.Kind, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: kind)
    }
    public static func head(_ status: Int, _ url: String) -> HTTPResponseHead {
        HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: status, reason: status == 200 ? "OK" : "Not Found",
                         headers: [HTTPHeader(name: "Content-Type", value: "application/json")])
    }
    public static func completed(_ id: Int, status: Int, url: String, bytes: Int64, totalMs: Double, at time: Double) -> TaskEvent {
        let timings = PhaseTimings(dns: 1, connect: 2, tls: -1, send: 0.5, wait: totalMs - 5, receive: 1.5, total: totalMs)
        return simple(id, .completed(TaskCompletion(response: head(status, url), body: .data(Data("{\"ok\":true}".utf8)), bytes: bytes,
                                                     timings: timings, redirects: [], serializer: "raw", serializedValue: nil,
                                                     serializationError: nil)), at: time)
    }
    /// The head the engine reports as sent: the client's own fields first, then the request's.
    public static func sent(_ method: String, _ url: String) -> RequestHead {
        let target = HTTPURL(string: url)!
        return RequestHead(url: target, method: method, target: target.requestTarget, httpVersion: "HTTP/1.1",
                           headers: [HTTPHeader(name: "Host", value: target.authority), HTTPHeader(name: "User-Agent", value: "reqtop/0.1.0"),
                                     HTTPHeader(name: "Accept", value: "*/*")], size: 80)
    }
    /// A whole successful lifecycle.
    public static func lifecycle(_ id: Int, _ method: String = "GET", _ url: String, status: Int, bytes: Int64, totalMs: Double) -> [TaskEvent] {
        [created(id, method, url, at: 100), simple(id, .resumed, at: 100.01),
         simple(id, .requestSent(sent(method, url)), at: 100.015),
         simple(id, .response(head(status, url)), at: 100.02),
         simple(id, .progress(TransferProgress(direction: .download, completed: bytes / 2, total: bytes)), at: 100.03),
         simple(id, .progress(TransferProgress(direction: .download, completed: bytes, total: bytes)), at: 100.04),
         completed(id, status: status, url: url, bytes: bytes, totalMs: totalMs, at: 100.05)]
    }
}
