import Foundation

/// Encodes events as JSON Lines — one object per line, a stable schema shared by the headless
/// `--events jsonl` output and event streams:
///
/// every line: `event`, `task` (integer), `time` (seconds since the epoch); header fields are always
/// an ordered list of `[name, value]` pairs, repeated names kept apart (Set-Cookie);
/// created: `method`, `url`, `headers` (as the request was given), optional `name`;
/// request: `method`, `url`, `version`, `headers` — the head exactly as sent, one per hop;
/// redirected: `status`, `from`, `to`, `headers` (of the redirect response);
/// response: `status`, `headers`; progress: `direction`, `completed`, `total` (−1 unknown);
/// completed: `status`, `bytes`, `timings` {redirect, dns, connect, tls, send, wait, receive, total} in ms (−1 n/a);
/// failed: `error` {`code`, `message`}.
///
/// Keys are written in sorted order, and numbers, strings and arrays exactly as `JSONSerialization` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes them; the writer is hand-made because going through
/// `JSONSerialization` and `[String: Any]` was 86 % of a `reqtop run --events jsonl` process's instructions.
public enum JSONLinesEncoder {
    /// One event as one line of JSON, without the trailing newline, its secrets hidden by
    /// `redaction` (nil: in clear, `--include-secrets`; a `SecretPolicy` hands out the one to use).
    public static func line(for event: TaskEvent, redaction: Redaction?) -> String {
        line(for: event, streamBodyLimit: nil, redaction: redaction)
    }

    /// The line, and with `streamBodyLimit` the event stream's extra fields (see `EventStreamEncoder`),
    /// each written where it sorts among the plain ones.
    static func line(for event: TaskEvent, streamBodyLimit: Int?, redaction: Redaction?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024) // a response line with a dozen headers fits
        append(event, streamBodyLimit: streamBodyLimit, redaction: redaction, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of `event` (without the newline) to `bytes`: a batch of lines is written
    /// into one buffer, with no string per line.
    public static func append(_ event: TaskEvent, redaction: Redaction?, to bytes: inout [UInt8]) {
        append(event, streamBodyLimit: nil, redaction: redaction, to: &bytes)
    }

    static func append(_ event: TaskEvent, streamBodyLimit: Int?, redaction: Redaction?, to bytes: inout [UInt8]) {
        let event = redaction?.event(event) ?? event
        let stream = streamBodyLimit != nil
        let limit = streamBodyLimit ?? 0
        var json = JSONObjectWriter(appendingTo: &bytes)
        defer { json.finish(into: &bytes) }
        switch event.kind {
        case .created(let description):
            if stream, case .data(let data) = description.request.body { json.body(data, limit: limit) }
            json.string("event", event.name.rawValue)
            json.headers("headers", description.request.headers)
            if stream { json.string("kind", description.kind.rawValue) }
            json.string("method", description.method)
            if let name = description.name { json.string("name", name) }
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("url", description.url.absoluteString)
        case .resumed, .suspended:
            json.common(event)
        case .cancelled(let partial):
            if stream, let body = partial?.partialBody { json.body(body, limit: limit) }
            if let partial, partial.bytes > 0 { json.number("bytes", partial.bytes) } // received before the cancel
            json.common(event)
        case .requestSent(let head):
            json.string("event", event.name.rawValue)
            json.headers("headers", head.headers)
            if stream { json.number("hop", head.hop) }
            json.string("method", head.method)
            if stream {
                json.number("size", head.size)
                json.string("target", head.target)
            }
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("url", head.url.absoluteString)
            json.string("version", head.httpVersion)
        case .redirected(let hop):
            json.string("event", event.name.rawValue)
            json.string("from", hop.from.absoluteString)
            json.headers("headers", hop.response.headers)
            if stream { json.string("reason", hop.response.reason) }
            json.number("status", hop.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.string("to", hop.to.absoluteString)
            if stream { json.string("version", hop.response.httpVersion) }
        case .response(let head):
            json.string("event", event.name.rawValue)
            json.headers("headers", head.headers)
            if stream { json.string("reason", head.reason) }
            json.number("status", head.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            if stream {
                json.string("url", head.url.absoluteString)
                json.string("version", head.httpVersion)
            }
        case .progress(let progress):
            json.number("completed", progress.completed)
            json.string("direction", progress.direction.rawValue)
            json.common(event)
            json.number("total", progress.total)
        case .completed(let completion):
            if stream, let body = completion.body { json.body(body, limit: limit) }
            json.number("bytes", completion.bytes)
            json.string("event", event.name.rawValue)
            json.number("status", completion.response.status)
            json.number("task", event.task.rawValue)
            json.number("time", event.time)
            json.timings("timings", completion.timings)
        case .failed(let failure):
            if stream {
                if let body = failure.partialBody { json.body(body, limit: limit) }
                json.number("bytes", failure.bytes)
            }
            json.object("error") { error in
                error.string("code", failure.error.code.rawValue)
                error.string("message", failure.error.message)
            }
            json.common(event)
            if stream, let timings = failure.timings { json.timings("timings", timings) }
        }
    }
}

/// Writes one JSON object field by field; the caller supplies the fields in sorted key order.
struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var first = true

    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Writes the object after what `buffer` holds; `finish(into:)` hands the buffer back.
    init(appendingTo buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and gives the buffer back to `buffer` (see `init(appendingTo:)`).
    mutating func finish(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    /// A nested object as the value of `name`, its fields written by `fields` (in sorted order).
    mutating func object(_ name: StaticString, _ fields: (inout JSONObjectWriter) -> Void) {
        key(name)
        bytes.append(UInt8(ascii: "{"))
        first = true
        fields(&self)
        first = false
        bytes.append(UInt8(ascii: "}"))
    }

    /// `event`, `task` and `time`, the fields every line has.
    mutating func common(_ event: TaskEvent) {
        string("event", event.name.rawValue)
        number("task", event.task.rawValue)
        number("time", event.time)
    }

    /// Keys are literals of plain ASCII letters (no escaping needed), copied as they are.
    mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        JSONEscaping.appendQuoted(value, to: &bytes)
    }

    mutating func number<I: FixedWidthInteger & SignedInteger>(_ name: StaticString, _ value: I) {
        key(name)
        Self.appendDecimal(Int64(value), to: &bytes)
    }

    /// The decimal digits of `value`, written into the buffer (no string made).
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// As `JSONSerialization` writes a `Double`: its shortest description without a trailing `.0`;
    /// non-finite values (which `JSONSerialization` refuses) become `null`.
    mutating func number(_ name: StaticString, _ value: Double) {
        key(name)
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        // A whole number (not -0, which keeps its sign) is its digits: no string made.
        if value == value.rounded(), value.magnitude < 1e15, value != 0 || value.sign == .plus {
            return Self.appendDecimal(Int64(value), to: &bytes)
        }
        var text = value.description
        text.withUTF8 { utf8 in
            let whole = utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<(whole ? utf8.count - 2 : utf8.count)]))
        }
    }

    /// Header fields as an ordered list of `[name, value]` pairs.
    mutating func headers(_ name: StaticString, _ headers: [HTTPHeader]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, header) in headers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            JSONEscaping.appendQuoted(header.name, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONEscaping.appendQuoted(header.value, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func timings(_ name: StaticString, _ t: PhaseTimings) {
        func round(_ value: Double) -> Double { value < 0 ? -1 : (value * 1000).rounded() / 1000 }
        object(name) { inner in
            inner.number("connect", round(t.connect))
            inner.number("dns", round(t.dns))
            inner.number("receive", round(t.receive))
            inner.number("redirect", round(t.redirect))
            inner.number("send", round(t.send))
            inner.number("tls", round(t.tls))
            inner.number("total", round(t.total))
            inner.number("wait", round(t.wait))
        }
    }

    /// A body as `body` (base64) when it is within `limit`, else `bodyOmitted` saying why.
    mutating func body(_ body: ResponseBody, limit: Int) {
        guard body.count > 0 else { return }
        if body.count <= Int64(limit), let data = try? body.loadData() { string("body", data.base64EncodedString()) }
        else { string("bodyOmitted", "\(body.count) bytes, over the stream's \(limit)-byte body limit") }
    }

    mutating func body(_ data: Data, limit: Int) { body(.data(data), limit: limit) }

    func finished() -> String {
        var bytes = self.bytes
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
