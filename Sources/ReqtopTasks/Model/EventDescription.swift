import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// Readable payload lines for an event, as the timeline and the event log show them.
/// The text may carry anything the network sent: the UI sanitizes it when drawing.
enum EventDescription {
    static func payload(of event: TaskEvent) -> [String] {
        switch event.kind {
        case .created(let d):
            return created(d.request, name: d.name, kind: d.kind)
        case .resumed, .suspended:
            return []
        case .cancelled(let partial):
            return cancelled(received: partial?.bytes ?? 0)
        case .requestSent(let head):
            return head.lines
        case .redirected(let hop):
            return redirect(hop)
        case .response(let head):
            return response(head)
        case .progress(let progress):
            return [self.progress(progress)]
        case .completed(let c):
            var bodyFile: URL?
            if case .file(let file)? = c.body { bodyFile = file.url }
            return completed(status: c.response.status, bytes: c.bytes, timings: c.timings, serializer: c.serializer,
                             bodyFile: bodyFile, serializationError: c.serializationError)
        case .failed(let f):
            return failed(f.error, status: f.response?.status, timings: f.timings)
        case .test(let result):
            return [test(result)]
        case .scriptLog(let log):
            return [self.log(log)]
        case .message(let message):
            return [self.message(message)]
        }
    }

    /// `#12 update id=7, 42 B: {"a":1}` (the data's first line, its first 200 characters).
    static func message(_ message: StreamMessage) -> String {
        var text = "#\(message.index)"
        if let name = message.event { text += " " + name }
        if let id = message.id { text += " id=\(id)" }
        text += ", \(ByteCount.format(Int64(message.size)))"
        if !message.isWhole { text += " (first \(ByteCount.format(Int64(message.data.utf8.count))) kept)" }
        if !message.isComplete { text += " (the response ended inside it)" }
        let firstLine = message.data.prefix { $0 != "\n" }
        return text + ": " + firstLine.prefix(200) + (firstLine.count > 200 || firstLine.count < message.data.count ? "…" : "")
    }

    private static func test(_ result: TestResult) -> String {
        (result.passed ? "✓ " : "✗ ") + result.name + (result.message.map { ": \($0)" } ?? "")
    }

    private static func log(_ log: ScriptLog) -> String { (log.level == .error ? "script error: " : "") + log.text }

    private static func cancelled(received: Int64) -> [String] {
        received > 0 ? ["after \(ByteCount.format(received)) of the body arrived (kept as a partial body)"] : []
    }

    /// A timeline entry's payload: what the entry kept, completed by what the record holds.
    static func payload(of entry: TimelineEntry, in r: TaskRecord) -> [String] {
        switch entry.event {
        case .created:
            return created(r.request, name: r.name, kind: r.kind)
        case .resumed, .suspended:
            return []
        case .cancelled:
            return cancelled(received: r.downloaded)
        case .request:
            guard case .sent(let index) = entry.detail, index < r.sentHeads.count else { return [] }
            return r.sentHeads[index].lines
        case .redirected:
            guard case .hop(let index) = entry.detail, index < r.redirects.count else { return [] }
            return redirect(r.redirects[index])
        case .response:
            return r.response.map(response) ?? []
        case .progress:
            guard case .progress(let progress) = entry.detail else { return [] }
            return [self.progress(progress)]
        case .completed:
            guard case .completion(let serializer, let error) = entry.detail else { return [] }
            var bodyFile: URL?
            if case .file(let file)? = r.body { bodyFile = file.url }
            return completed(status: r.status ?? 0, bytes: r.downloaded, timings: r.timings ?? .unknown,
                             serializer: serializer, bodyFile: bodyFile, serializationError: error)
        case .failed:
            guard let error = r.error else { return [] }
            return failed(error, status: r.status, timings: r.timings)
        case .test:
            guard case .test(let index) = entry.detail, index < r.tests.count else { return [] }
            return [test(r.tests[index])]
        case .log:
            guard case .log(let index) = entry.detail, index < r.scriptLogs.count else { return [] }
            return [log(r.scriptLogs[index])]
        case .message:
            guard case .messages(let first, let count) = entry.detail else { return [] }
            let summary = count == 1 ? "message #\(first)" : "messages #\(first)–#\(first + count - 1) (\(count)): the Stream tab lists them"
            let shown = r.messages?.entries.first { $0.message.index == first }.map { [message($0.message)] } ?? []
            return [summary] + (count == 1 ? shown : [])
        }
    }

    private static func created(_ request: HTTPRequest, name: String?, kind: TaskKind) -> [String] {
        var lines = ["\(request.method) \(request.url.absoluteString)"]
        if let name { lines.append("name: \(name)") }
        let body: String = switch request.body {
        case .none: ""
        case .data(let data): ", body \(ByteCount.format(Int64(data.count)))"
        case .file(let path): ", body from \(path)"
        }
        lines.append("kind: \(kind.rawValue), \(request.headers.count) request headers" + body)
        return lines
    }

    private static func redirect(_ hop: RedirectHop) -> [String] {
        ["\(hop.status) \(hop.from.absoluteString) → \(hop.to.absoluteString)"] + hop.response.headers.map(\.description)
    }

    private static func response(_ head: HTTPResponseHead) -> [String] {
        [head.statusLine] + head.headers.map(\.description)
    }

    private static func progress(_ progress: TransferProgress) -> String {
        let total = progress.total >= 0 ? " of \(ByteCount.format(progress.total))" : ""
        return "\(progress.direction.rawValue) \(ByteCount.format(progress.completed))\(total)"
    }

    private static func completed(status: Int, bytes: Int64, timings: PhaseTimings, serializer: String, bodyFile: URL?,
                                  serializationError: String?) -> [String] {
        var lines = ["status \(status), \(ByteCount.format(bytes)), \(Milliseconds.format(timings.total))", "serializer \(serializer)"]
        if let bodyFile { lines.append("body file \(bodyFile.path)") }
        if let serializationError { lines.append("serialization error: \(serializationError)") }
        lines.append(timingLine(timings))
        return lines
    }

    private static func failed(_ error: TransferError, status: Int?, timings: PhaseTimings?) -> [String] {
        var lines = ["\(error.code.rawValue): \(error.message)"]
        if let status { lines.append("status \(status)") }
        if let timings { lines.append(timingLine(timings)) }
        return lines
    }

    /// One line for the event log pane.
    static func logLine(_ event: TaskEvent, record: TaskRecord?) -> String {
        let what = payload(of: event).first.map { " " + $0 } ?? ""
        let target = record.map { " \($0.method) \($0.hostAndPort)\($0.pathAndQuery)" } ?? ""
        switch event.kind {
        case .created, .resumed, .suspended, .cancelled: return "\(event.task) \(event.name.rawValue)\(target)"
        default: return "\(event.task) \(event.name.rawValue)\(what)"
        }
    }

    static func timingLine(_ t: PhaseTimings) -> String {
        (t.redirect >= 0 ? "redirect \(Milliseconds.format(t.redirect)) " : "") + "dns \(Milliseconds.format(t.dns)) connect \(Milliseconds.format(t.connect)) tls \(Milliseconds.format(t.tls)) "
            + "send \(Milliseconds.format(t.send)) wait \(Milliseconds.format(t.wait)) receive \(Milliseconds.format(t.receive))"
    }
}
