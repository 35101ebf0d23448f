import Foundation
import ReqtopNetworking

/// Bus events shaped like the engine's for a GET of a small file: every task gets its own strings and body,
/// as real responses would, so memory per task is honest.
enum SyntheticEvents {
    static let host = "http://127.0.0.1:8080"

    static func created(_ id: Int, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: .created(TaskDescription(
            kind: .data, request: HTTPRequest(url: url(id), headers: [HTTPHeader(name: "Accept", value: "*/*")]))))
    }

    static func url(_ id: Int) -> HTTPURL { HTTPURL(string: "\(host)/api/items/\(id)?page=\(id % 97)")! }

    /// The request head as the engine reports it once sent.
    static func sent(_ id: Int, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: .requestSent(RequestHead(
            url: url(id), method: "GET", target: url(id).requestTarget, httpVersion: "HTTP/1.1",
            headers: [HTTPHeader(name: "Host", value: "127.0.0.1:8080"), HTTPHeader(name: "User-Agent", value: "reqtop/0.1.0"),
                      HTTPHeader(name: "Accept", value: "*/*")], size: 96)))
    }

    static func resumed(_ id: Int, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: .resumed)
    }

    static func head(_ id: Int) -> HTTPResponseHead {
        HTTPResponseHead(url: url(id), httpVersion: "1.1", status: 200, reason: "OK",
                         headers: [HTTPHeader(name: "Server", value: "nginx/1.22.1"),
                                   HTTPHeader(name: "Date", value: "Sun, 29 Nov 2026 19:\(10 + id % 50):\(10 + id % 49) GMT"),
                                   HTTPHeader(name: "Content-Type", value: "application/json"),
                                   HTTPHeader(name: "Content-Length", value: "\(bodySize(id))"),
                                   HTTPHeader(name: "ETag", value: "\"\(String(id, radix: 16))-64\""),
                                   HTTPHeader(name: "Connection", value: "keep-alive")])
    }

    static func response(_ id: Int, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: .response(head(id)))
    }

    static func progress(_ id: Int, completed: Int64, at time: Double) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time,
                  kind: .progress(TransferProgress(direction: .download, completed: completed, total: Int64(bodySize(id)))))
    }

    static func completed(_ id: Int, at time: Double) -> TaskEvent {
        let body = Data("{\"id\":\(id),\"name\":\"item \(id)\",\"tags\":[\"a\",\"b\"],\"ok\":true}".utf8)
        let timings = PhaseTimings(dns: 0.1, connect: 0.2, tls: -1, send: 0.05, wait: 1.5, receive: 0.1, total: 2 + Double(id % 7))
        return TaskEvent(task: TaskID(rawValue: id), time: time, kind: .completed(TaskCompletion(
            response: head(id), body: .data(body), bytes: Int64(body.count), timings: timings, redirects: [],
            serializer: "raw", serializedValue: nil, serializationError: nil)))
    }

    /// created, resumed, response, progress ×2, completed: six events.
    static func lifecycle(_ id: Int, at time: Double) -> [TaskEvent] {
        [created(id, at: time), resumed(id, at: time), response(id, at: time + 0.001),
         progress(id, completed: Int64(bodySize(id) / 2), at: time + 0.001), progress(id, completed: Int64(bodySize(id)), at: time + 0.002),
         completed(id, at: time + 0.002)]
    }

    static func bodySize(_ id: Int) -> Int { 54 + String(id).utf8.count * 2 }
}
