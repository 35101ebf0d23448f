import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes the plain line of an event (`--events jsonl`) straight from the event into the
/// caller's buffer: the fields `EventLine` at its `plain` detail has, in the same sorted order
/// and the same bytes (`JSONLinesEncoderTests` compares them for every kind of event, with and
/// without secrets), but without building the line's forty optional fields or a redacted copy of
/// the event first — a printer at ten thousand requests a second spent a fifth of the process on that.
/// Only what the line shows is redacted: a body it does not write is not searched.
enum PlainLineWriter {
    static func write(_ event: TaskEvent, redaction: Redaction?, to bytes: inout [UInt8]) {
        let sink = ByteSink()
        write(event, redaction: redaction, into: sink)
        sink.withBytes { bytes.append(contentsOf: $0) }
    }

    /// The line written after what `sink` holds: a batch of lines goes into one buffer, with no
    /// buffer per line to allocate and copy from.
    static func write(_ event: TaskEvent, redaction: Redaction?, into sink: ByteSink) {
        var json = JSONObjectWriter(appendingTo: sink)
        func common() {
            json.string("event", event.name.rawValue)
        }
        func taskAndTime() {
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
        }
        func headers(_ fields: [HTTPHeader]) { json.headers("headers", redaction?.headers(fields) ?? fields) }
        func url(_ url: HTTPURL) -> String { redaction?.shownURL(url) ?? url.absoluteString }
        func message(_ text: String) -> String {
            guard let redaction else { return text }
            return String(decoding: redaction.body(Data(text.utf8)), as: UTF8.self)
        }
        switch event.kind {
        case .created(let description):
            let request = description.request
            common()
            headers(request.headers)
            json.string("method", request.method)
            if let name = description.name { json.string("name", name) }
            taskAndTime()
            json.string("url", url(request.url))
        case .resumed, .suspended:
            common()
            taskAndTime()
        case .requestSent(let head):
            common()
            headers(head.headers)
            json.string("method", head.method)
            taskAndTime()
            json.string("url", url(head.url))
            json.string("version", head.httpVersion)
        case .redirected(let hop):
            common()
            json.string("from", url(hop.from))
            headers(hop.response.headers)
            json.number("status", hop.status)
            taskAndTime()
            json.string("to", url(hop.to))
        case .response(let head):
            common()
            headers(head.headers)
            json.number("status", head.status)
            taskAndTime()
        case .progress(let progress):
            json.number("completed", progress.completed)
            json.string("direction", progress.direction.rawValue)
            common()
            taskAndTime()
            json.number("total", progress.total)
        case .completed(let completion):
            json.number("bytes", completion.bytes)
            common()
            json.number("status", completion.response.status)
            taskAndTime()
            json.timings("timings", completion.timings.toTheMicrosecond)
        case .failed(let failure):
            json.object("error") { inner in
                inner.string("code", failure.error.code.rawValue)
                inner.string("message", failure.error.message)
            }
            common()
            taskAndTime()
        case .cancelled(let partial):
            if let partial, partial.bytes > 0 { json.number("bytes", partial.bytes) }
            common()
            taskAndTime()
        case .test(let result):
            common()
            if let text = result.message { json.string("message", message(text)) }
            json.string("name", result.name)
            json.bool("passed", result.passed)
            taskAndTime()
        case .scriptLog(let log):
            common()
            json.string("level", log.level.rawValue)
            json.string("message", message(log.text))
            taskAndTime()
        case .message(let streamed):
            if let code = streamed.closeCode { json.number("closeCode", code) }
            json.string("data", message(streamed.data))
            if let direction = streamed.direction { json.string("direction", direction.rawValue) }
            common()
            json.string("format", streamed.format.rawValue)
            if let id = streamed.id { json.string("id", id) }
            if !streamed.isComplete { json.bool("incomplete", true) }
            json.number("index", streamed.index)
            if let name = streamed.event { json.string("name", name) }
            if let opcode = streamed.opcode { json.number("opcode", opcode) }
            if !streamed.isWhole { json.bool("partial", true) }
            if let retry = streamed.retry { json.number("retry", retry) }
            json.number("size", streamed.size)
            taskAndTime()
        }
        json.finish()
    }
}

extension Redaction {
    /// The text of `url` as a redacted event shows it (`Redaction.event`): hidden where secret, and
    /// as it was when the hidden text is no URL.
    func shownURL(_ url: HTTPURL) -> String {
        let text = url.absoluteString
        let hidden = self.url(text)
        guard hidden != text, let parsed = HTTPURL(string: hidden) else { return text }
        return parsed.absoluteString
    }
}
