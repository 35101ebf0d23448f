import Foundation
import ReqtopNetworking

/// Reads an event stream (`SessionManager.publishEvents`, see `EventStreamEncoder`) back into
/// task events for a `TaskStore`. It keeps, per task, the response head and redirect hops seen so
/// far, which the end events refer to. Task ids are remapped (`idOffset`), so a reconnection's
/// tasks never collide with an earlier connection's.
package struct EventStreamDecoder {
    /// What one line was.
    package enum Line {
        case hello(EventStreamHello)
        case event(TaskEvent)
        /// A reply to a command (`{"event":"reply"}`).
        case reply(task: Int, outcome: String)
        /// The publisher dropped this reader (it fell behind): the stream ends.
        case overflow(String)
        /// A line this reader does not understand (a newer schema, or not JSON): skipped.
        case unreadable
    }

    private var responses: [Int: HTTPResponseHead] = [:]
    private var hops: [Int: [RedirectHop]] = [:]
    /// Added to every task id of this connection.
    package var idOffset: Int

    package init(idOffset: Int = 0) { self.idOffset = idOffset }

    package mutating func decode(_ line: Data) -> Line {
        guard let o = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let name = o["event"] as? String else { return .unreadable }
        switch name {
        case "hello":
            return .hello(EventStreamHello(process: o["process"] as? String ?? "?", pid: o["pid"] as? Int ?? 0,
                                           started: o["started"] as? Double ?? 0, controlAllowed: (o["control"] as? String) == "allowed"))
        case "reply": return .reply(task: o["task"] as? Int ?? 0, outcome: o["outcome"] as? String ?? "")
        case "overflow": return .overflow(o["reason"] as? String ?? "the stream overflowed")
        default: break
        }
        // An id outside a connection's span would collide with another connection's (or overflow).
        guard let remote = o["task"] as? Int, remote >= 0, remote < EventStreamClient.idSpan, let time = (o["time"] as? Double) ?? (o["time"] as? Int).map(Double.init),
              let eventName = TaskEvent.Name(rawValue: name) else { return .unreadable }
        let id = TaskID(rawValue: remote + idOffset)
        let kind: TaskEvent.Kind
        switch eventName {
        case .created:
            guard let url = Self.url(o["url"]) else { return .unreadable }
            let body: HTTPRequest.Body = Self.body(o).map { .data($0) } ?? .none
            let request = HTTPRequest(method: o["method"] as? String ?? "GET", url: url, headers: Self.headers(o["headers"]), body: body)
            kind = .created(TaskDescription(kind: TaskKind(rawValue: o["kind"] as? String ?? "") ?? .data, name: o["name"] as? String,
                                            request: request))
        case .resumed: kind = .resumed
        case .suspended: kind = .suspended
        case .request:
            guard let url = Self.url(o["url"]) else { return .unreadable }
            kind = .requestSent(RequestHead(url: url, method: o["method"] as? String ?? "", target: o["target"] as? String ?? url.requestTarget,
                                            httpVersion: o["version"] as? String ?? "", headers: Self.headers(o["headers"]),
                                            size: o["size"] as? Int ?? -1, hop: o["hop"] as? Int ?? 0))
        case .redirected:
            guard let from = Self.url(o["from"]), let to = Self.url(o["to"]) else { return .unreadable }
            let status = o["status"] as? Int ?? 0
            let head = HTTPResponseHead(url: from, httpVersion: o["version"] as? String ?? "", status: status,
                                        reason: o["reason"] as? String ?? "", headers: Self.headers(o["headers"]))
            let hop = RedirectHop(status: status, from: from, to: to, response: head)
            hops[remote, default: []].append(hop)
            kind = .redirected(hop)
        case .response:
            let url = Self.url(o["url"]) ?? responses[remote]?.url ?? HTTPURL(string: "http://unknown/")!
            let head = HTTPResponseHead(url: url, httpVersion: o["version"] as? String ?? "", status: o["status"] as? Int ?? 0,
                                        reason: o["reason"] as? String ?? "", headers: Self.headers(o["headers"]))
            responses[remote] = head
            kind = .response(head)
        case .progress:
            guard let direction = TransferProgress.Direction(rawValue: o["direction"] as? String ?? "") else { return .unreadable }
            kind = .progress(TransferProgress(direction: direction, completed: Int64(o["completed"] as? Int ?? 0), total: Int64(o["total"] as? Int ?? -1)))
        case .completed:
            let head = responses[remote] ?? HTTPResponseHead(url: HTTPURL(string: "http://unknown/")!, httpVersion: "", status: o["status"] as? Int ?? 0,
                                                             reason: "", headers: [])
            kind = .completed(TaskCompletion(response: head, body: Self.body(o).map { .data($0) }, bytes: Int64(o["bytes"] as? Int ?? 0),
                                             timings: Self.timings(o["timings"]) ?? .unknown, redirects: hops[remote] ?? [],
                                             serializer: "stream", serializedValue: nil, serializationError: nil))
            forget(remote)
        case .failed:
            let error = o["error"] as? [String: Any]
            let code = (error?["code"] as? String).flatMap(TransferError.Code.init(rawValue:)) ?? .other
            kind = .failed(TaskFailure(error: TransferError(code: code, message: error?["message"] as? String ?? code.rawValue),
                                       response: responses[remote], bytes: Int64(o["bytes"] as? Int ?? 0), timings: Self.timings(o["timings"]),
                                       redirects: hops[remote] ?? [], partialBody: Self.body(o).map { .data($0) }))
            forget(remote)
        case .cancelled:
            let bytes = Int64(o["bytes"] as? Int ?? 0)
            kind = .cancelled(bytes > 0 || responses[remote] != nil ? TaskFailure(
                error: TransferError(code: .cancelled, message: "cancelled"), response: responses[remote], bytes: bytes, timings: nil,
                redirects: hops[remote] ?? [], partialBody: Self.body(o).map { .data($0) }) : nil)
            forget(remote)
        }
        return .event(TaskEvent(task: id, time: time, kind: kind))
    }

    private mutating func forget(_ task: Int) {
        responses[task] = nil
        hops[task] = nil
    }

    private static func url(_ value: Any?) -> HTTPURL? { (value as? String).flatMap(HTTPURL.init(string:)) }

    private static func headers(_ value: Any?) -> [HTTPHeader] {
        (value as? [[Any]] ?? []).compactMap { pair in
            guard pair.count == 2, let name = pair[0] as? String, let value = pair[1] as? String else { return nil }
            return HTTPHeader(name: name, value: value)
        }
    }

    private static func body(_ o: [String: Any]) -> Data? { (o["body"] as? String).flatMap { Data(base64Encoded: $0) } }

    private static func timings(_ value: Any?) -> PhaseTimings? {
        guard let t = value as? [String: Any] else { return nil }
        func ms(_ key: String) -> Double { (t[key] as? Double) ?? Double(t[key] as? Int ?? -1) }
        var timings = PhaseTimings(dns: ms("dns"), connect: ms("connect"), tls: ms("tls"), send: ms("send"), wait: ms("wait"),
                                   receive: ms("receive"), total: ms("total"))
        timings.redirect = ms("redirect")
        return timings
    }
}

/// The first line of a stream: which process publishes it, and whether it takes commands.
package struct EventStreamHello: Sendable, Equatable {
    package var process: String
    package var pid: Int
    package var started: Double
    package var controlAllowed: Bool
}
