import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns event lines (`EventLine`) back into task events. A line refers to what came before it —
/// an end event to the task's response head and redirect hops, a response to the request's URL —
/// so the reader keeps, per task, what it has seen until the task ends. Plain lines (`--events
/// jsonl`) read back too, with what they leave out left empty.
package struct EventLineReader {
    private var urls: [Int: HTTPURL] = [:]
    private var responses: [Int: HTTPResponseHead] = [:]
    private var hops: [Int: [RedirectHop]] = [:]

    package init() {}

    /// The event `line` records, nil when it is not one this version can read (an unknown event,
    /// a field it cannot do without missing).
    package mutating func event(from line: EventLine) -> TaskEvent? {
        guard let name = TaskEvent.Name(rawValue: line.event) else { return nil }
        let task = line.task
        let kind: TaskEvent.Kind
        switch name {
        case .created:
            guard let url = Self.url(line.url) else { return nil }
            let body: HTTPRequest.Body = line.bodyFile.map { .file(path: $0) } ?? line.body.map { .data($0) } ?? .none
            let request = HTTPRequest(method: line.method ?? "GET", url: url, headers: line.headers ?? [], body: body,
                                      options: line.options ?? HTTPRequest.Options())
            urls[task] = url
            kind = .created(TaskDescription(kind: line.kind.flatMap(TaskKind.init(rawValue:)) ?? .data, name: line.name, request: request,
                                            destination: line.destination.map { URL(fileURLWithPath: $0) }))
        case .resumed: kind = .resumed
        case .suspended: kind = .suspended
        case .request:
            guard let url = Self.url(line.url) else { return nil }
            kind = .requestSent(RequestHead(url: url, method: line.method ?? "", target: line.target ?? url.requestTarget,
                                            httpVersion: line.version ?? "", headers: line.headers ?? [], size: line.size ?? -1, hop: line.hop ?? 0))
        case .redirected:
            guard let from = Self.url(line.from), let to = Self.url(line.to) else { return nil }
            let status = line.status ?? 0
            let head = HTTPResponseHead(url: from, httpVersion: line.version ?? "", status: status, reason: line.reason ?? "",
                                        headers: line.headers ?? [], size: line.size ?? -1)
            let hop = RedirectHop(status: status, from: from, to: to, response: head, timings: line.timings)
            hops[task, default: []].append(hop)
            kind = .redirected(hop)
        case .response:
            let head = HTTPResponseHead(url: Self.url(line.url) ?? hops[task]?.last?.to ?? urls[task] ?? Self.unknown,
                                        httpVersion: line.version ?? "", status: line.status ?? 0, reason: line.reason ?? "",
                                        headers: line.headers ?? [], size: line.size ?? -1)
            responses[task] = head
            kind = .response(head)
        case .progress:
            guard let direction = line.direction.flatMap(TransferProgress.Direction.init(rawValue:)) else { return nil }
            kind = .progress(TransferProgress(direction: direction, completed: line.completed ?? 0, total: line.total ?? -1))
        case .completed:
            let head = responses[task] ?? HTTPResponseHead(url: urls[task] ?? Self.unknown, httpVersion: "", status: line.status ?? 0,
                                                           reason: "", headers: [])
            kind = .completed(TaskCompletion(response: head, body: Self.body(of: line), bytes: line.bytes ?? 0,
                                             timings: line.timings ?? .unknown, redirects: hops(of: task, timedBy: line),
                                             serializer: line.serializer ?? "raw", serializedValue: nil,
                                             serializationError: line.serializationError, sentBody: Self.sentBody(of: line),
                                             connection: line.connection))
            forget(task)
        case .failed:
            let code = line.error.flatMap { TransferError.Code(rawValue: $0.code) } ?? .other
            let error = TransferError(code: code, message: line.error?.message ?? code.rawValue, curlCode: line.error?.curl)
            kind = .failed(TaskFailure(error: error, response: responses[task], bytes: line.bytes ?? 0, timings: line.timings,
                                       redirects: hops(of: task, timedBy: line), partialBody: Self.body(of: line),
                                       sentBody: Self.sentBody(of: line), connection: line.connection))
            forget(task)
        case .test:
            kind = .test(TestResult(name: line.name ?? "?", passed: line.passed ?? false, message: line.message))
        case .log:
            kind = .scriptLog(ScriptLog(level: line.level.flatMap(ScriptLog.Level.init(rawValue:)) ?? .log, text: line.message ?? ""))
        case .message:
            guard let format = line.format.flatMap(StreamMessage.Format.init(rawValue:)), let data = line.data else { return nil }
            var message = StreamMessage(format: format, index: line.index ?? 0, event: line.name, id: line.id, retry: line.retry, data: data,
                                        size: line.size ?? data.utf8.count, isWhole: line.partial != true, isComplete: line.incomplete != true)
            message.direction = line.direction.flatMap(WebSocketMessage.Direction.init(rawValue:))
            message.opcode = line.opcode
            message.closeCode = line.closeCode
            kind = .message(message)
        case .cancelled:
            let bytes = line.bytes ?? 0
            let happened = bytes > 0 || responses[task] != nil || line.timings != nil
            kind = .cancelled(happened ? TaskFailure(error: TransferError(code: .cancelled, message: "cancelled"), response: responses[task],
                                                     bytes: bytes, timings: line.timings, redirects: hops(of: task, timedBy: line),
                                                     partialBody: Self.body(of: line), sentBody: Self.sentBody(of: line),
                                                     connection: line.connection) : nil)
            forget(task)
        }
        return TaskEvent(task: TaskID(rawValue: task), time: line.time, kind: kind)
    }

    private mutating func forget(_ task: Int) {
        urls[task] = nil
        responses[task] = nil
        hops[task] = nil
    }

    /// The task's hops, each with its timings from the end line when it has them.
    private func hops(of task: Int, timedBy line: EventLine) -> [RedirectHop] {
        var hops = self.hops[task] ?? []
        for (index, timings) in (line.hopTimings ?? []).enumerated() where index < hops.count {
            hops[index].timings = timings
        }
        return hops
    }

    private static let unknown = HTTPURL(string: "http://unknown/")!

    private static func url(_ text: String?) -> HTTPURL? { text.flatMap(HTTPURL.init(string:)) }

    /// The body kept inline, or the download's file while it still exists.
    private static func sentBody(of line: EventLine) -> StreamedRequestBody? {
        line.requestBytes.map { StreamedRequestBody(kept: line.requestBody ?? Data(), size: $0) }
    }

    private static func body(of line: EventLine) -> ResponseBody? {
        if let body = line.body { return .data(body) }
        if let path = line.bodyFile, FileManager.default.fileExists(atPath: path) { return .file(BodyFile(existing: URL(fileURLWithPath: path))) }
        return nil
    }
}
