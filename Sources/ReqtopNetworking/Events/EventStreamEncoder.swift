import Foundation

/// The lines of an event stream (`SessionManager.publishEvents`): the JSON Lines schema of
/// `JSONLinesEncoder`, plus what a viewer needs to show a task again in full — the request body
/// and task kind on `created`, the target, size and hop of each head sent, reason and version of
/// each response head (and its URL), and bodies up to a limit (base64) on `completed`, `failed`
/// and `cancelled`, with `bodyOmitted` when one was larger. Every field of the plain schema is
/// there with the same meaning, so a reader of `--events jsonl` reads a stream too.
public enum EventStreamEncoder {
    /// One event as one line (no newline); bodies over `bodyLimit` bytes are left out and named.
    public static func line(for event: TaskEvent, bodyLimit: Int) -> String {
        var json = JSONObjectWriter()
        switch event.kind {
        case .created(let d):
            if case .data(let data) = d.request.body { body(data, limit: bodyLimit, into: &json) }
            json.string("event", event.name.rawValue)
            json.headers("headers", d.request.headers)
            json.string("kind", d.kind.rawValue)
            json.string("method", d.method)
            if let name = d.name { json.string("name", name) }
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("url", d.url.absoluteString)
        case .resumed, .suspended:
            json.common(event)
        case .cancelled(let partial):
            if let partial { ending(partial.partialBody, limit: bodyLimit, into: &json) }
            if let partial, partial.bytes > 0 { json.number("bytes", partial.bytes) }
            json.common(event)
        case .requestSent(let head):
            json.string("event", event.name.rawValue)
            json.headers("headers", head.headers)
            json.number("hop", head.hop)
            json.string("method", head.method)
            json.number("size", head.size)
            json.string("target", head.target)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("url", head.url.absoluteString)
            json.string("version", head.httpVersion)
        case .redirected(let hop):
            json.string("event", event.name.rawValue)
            json.string("from", hop.from.absoluteString)
            json.headers("headers", hop.response.headers)
            json.string("reason", hop.response.reason)
            json.number("status", hop.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("to", hop.to.absoluteString)
            json.string("version", hop.response.httpVersion)
        case .response(let head):
            json.string("event", event.name.rawValue)
            json.headers("headers", head.headers)
            json.string("reason", head.reason)
            json.number("status", head.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("url", head.url.absoluteString)
            json.string("version", head.httpVersion)
        case .progress:
            return JSONLinesEncoder.line(for: event)
        case .completed(let c):
            ending(c.body, limit: bodyLimit, into: &json)
            json.number("bytes", c.bytes)
            json.string("event", event.name.rawValue)
            json.number("status", c.response.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.timings("timings", c.timings)
        case .failed(let f):
            ending(f.partialBody, limit: bodyLimit, into: &json)
            json.number("bytes", f.bytes)
            json.key("error")
            var error = JSONObjectWriter()
            error.string("code", f.error.code.rawValue)
            error.string("message", f.error.message)
            json.raw(error.finished())
            json.common(event)
            if let t = f.timings { json.timings("timings", t) }
        }
        return json.finished()
    }

    /// `body` (base64) or `bodyOmitted` (why), before the fields after them in key order.
    private static func ending(_ body: ResponseBody?, limit: Int, into json: inout JSONObjectWriter) {
        guard let body, body.count > 0 else { return }
        if body.count <= Int64(limit), let data = try? body.loadData() {
            json.string("body", data.base64EncodedString())
        } else {
            json.string("bodyOmitted", "\(body.count) bytes, over the stream's \(limit)-byte body limit")
        }
    }

    private static func body(_ data: Data, limit: Int, into json: inout JSONObjectWriter) {
        guard !data.isEmpty else { return }
        if data.count <= limit { json.string("body", data.base64EncodedString()) }
        else { json.string("bodyOmitted", "\(data.count) bytes, over the stream's \(limit)-byte body limit") }
    }
}
