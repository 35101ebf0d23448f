import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The one schema of an event outside the process: every field any event line can carry. JSON
/// Lines (`--events jsonl`), the event stream (`reqtop attach`) and the session journal are all this
/// type written by `EventLine.fields` and read back by the same table; docs/events.md names each
/// field (checked by `EventSchemaTests`).
///
/// An event becomes a line at one of two levels of detail (`EventLine.Detail`): `plain`, the
/// documented JSON Lines schema, and `full`, which adds what a viewer needs to show the task again
/// (bodies up to a limit, request options, head sizes and reasons, serializer, curl's error code).
/// Every plain field is in a full line with the same meaning, so a reader of one reads the other.
package struct EventLine: Sendable, Equatable {
    package var event: String
    package var task: Int
    package var time: Double

    package var body: Data?
    /// A `message` event's data: all of it, or its first bytes when `partial`.
    package var data: String?
    package var bodyFile: String?
    package var bodyOmitted: String?
    package var bytes: Int64?
    /// A WebSocket close frame's status code.
    package var closeCode: Int?
    package var completed: Int64?
    /// The connection of a task's last exchange (full lines of its end).
    package var connection: TransferConnection?
    package var destination: String?
    package var direction: String?
    package var error: ErrorField?
    /// A `message` event's format: `sse`, `ndjson` or `json-array`.
    package var format: String?
    package var from: String?
    package var headers: [HTTPHeader]?
    package var hop: Int?
    /// The timings of each redirect hop, known when the task ends (`null` where unknown).
    package var hopTimings: [PhaseTimings?]?
    /// A server-sent event's `id:` field, as sent.
    package var id: String?
    /// True on a `message` the response ended inside.
    package var incomplete: Bool?
    /// A `message` event's position in its response (1 for the first).
    package var index: Int?
    package var kind: String?
    /// A `log` event's level: `log` or `error`.
    package var level: String?
    /// A failed test's reason, a log line's text.
    package var message: String?
    package var method: String?
    package var name: String?
    /// A WebSocket message's opcode (1 text, 2 binary, 8 close, 9 ping, 10 pong).
    package var opcode: Int?
    package var options: HTTPRequest.Options?
    /// True on a `message` whose data holds only the first of `size` bytes.
    package var partial: Bool?
    package var passed: Bool?
    package var reason: String?
    /// A streamed request body (a proxied client's) as sent: its first bytes, and the whole size.
    package var requestBody: Data?
    package var requestBytes: Int64?
    /// A server-sent event's `retry:` field (milliseconds).
    package var retry: Int?
    package var serializationError: String?
    package var serializer: String?
    package var size: Int?
    package var status: Int?
    package var target: String?
    package var timings: PhaseTimings?
    package var to: String?
    package var total: Int64?
    package var url: String?
    package var version: String?

    /// `error` of a failed task: its code, message and, in full lines, libcurl's own code.
    package struct ErrorField: Sendable, Equatable {
        package var code: String
        package var curl: Int?
        package var message: String
    }

    /// How much of an event a line keeps.
    package enum Detail: Sendable {
        /// The documented JSON Lines schema. `--events jsonl` writes it with `PlainLineWriter`,
        /// straight from the events; this is the definition that writer is held to (EventSchemaTests).
        case plain
        /// Everything needed to show the task again; bodies up to `bodyLimit` bytes inline, a larger
        /// one named in `bodyOmitted` ("over the `keptBy`'s limit"), a download by its file.
        case full(bodyLimit: Int, keptBy: String)
    }

    package init(event: String, task: Int, time: Double) {
        self.event = event
        self.task = task
        self.time = time
    }
}

// MARK: An event as a line

extension EventLine {
    /// The line of `event` at `detail`, its secrets hidden by `redaction` (nil: in clear).
    package init(_ event: TaskEvent, detail: Detail, redaction: Redaction?) {
        let event = redaction?.event(event) ?? event
        self.init(event: event.name.rawValue, task: event.task.rawValue, time: event.time)
        let full: (limit: Int, keptBy: String)?
        if case .full(let limit, let keptBy) = detail { full = (limit, keptBy) } else { full = nil }
        switch event.kind {
        case .created(let description):
            let request = description.request
            method = request.method
            url = request.url.absoluteString
            headers = request.headers
            name = description.name
            guard let full else { break }
            kind = description.kind.rawValue
            destination = description.destination?.path
            if request.options != HTTPRequest.Options() { options = request.options }
            switch request.body {
            case .none: break
            case .data(let data): keep(.data(data), limit: full.limit, keptBy: full.keptBy)
            case .file(let path): bodyFile = path
            }
        case .resumed, .suspended:
            break
        case .requestSent(let head):
            method = head.method
            url = head.url.absoluteString
            version = head.httpVersion
            headers = head.headers
            guard full != nil else { break }
            target = head.target
            size = head.size
            hop = head.hop
        case .redirected(let hop):
            status = hop.status
            from = hop.from.absoluteString
            to = hop.to.absoluteString
            headers = hop.response.headers
            guard full != nil else { break }
            reason = hop.response.reason
            version = hop.response.httpVersion
            size = hop.response.size
            timings = hop.timings
        case .response(let head):
            status = head.status
            headers = head.headers
            guard full != nil else { break }
            url = head.url.absoluteString
            reason = head.reason
            version = head.httpVersion
            size = head.size
        case .progress(let progress):
            direction = progress.direction.rawValue
            completed = progress.completed
            total = progress.total
        case .completed(let completion):
            status = completion.response.status
            bytes = completion.bytes
            timings = completion.timings
            guard let full else { timings = completion.timings.toTheMicrosecond; break }
            hopTimings = Self.hopTimings(completion.redirects)
            serializer = completion.serializer
            serializationError = completion.serializationError
            keep(completion.body, limit: full.limit, keptBy: full.keptBy)
            keep(sent: completion.sentBody, limit: full.limit)
            connection = completion.connection
        case .failed(let failure):
            error = ErrorField(code: failure.error.code.rawValue, curl: full == nil ? nil : failure.error.curlCode, message: failure.error.message)
            guard let full else { break }
            bytes = failure.bytes
            timings = failure.timings
            hopTimings = Self.hopTimings(failure.redirects)
            keep(failure.partialBody, limit: full.limit, keptBy: full.keptBy)
            keep(sent: failure.sentBody, limit: full.limit)
            connection = failure.connection
        case .test(let result):
            name = result.name
            passed = result.passed
            message = result.message
        case .scriptLog(let log):
            level = log.level.rawValue
            message = log.text
        case .message(let streamed):
            format = streamed.format.rawValue
            index = streamed.index
            name = streamed.event
            id = streamed.id
            retry = streamed.retry
            data = streamed.data
            size = streamed.size
            if !streamed.isWhole { partial = true }
            if !streamed.isComplete { incomplete = true }
            direction = streamed.direction?.rawValue
            opcode = streamed.opcode
            closeCode = streamed.closeCode
        case .cancelled(let partial):
            if let partial, partial.bytes > 0 { bytes = partial.bytes } // received before the cancel
            guard let full, let partial else { break }
            timings = partial.timings
            hopTimings = Self.hopTimings(partial.redirects)
            keep(partial.partialBody, limit: full.limit, keptBy: full.keptBy)
            keep(sent: partial.sentBody, limit: full.limit)
            connection = partial.connection
        }
    }

    /// A streamed request body's size, and its kept bytes when they are within `limit`.
    private mutating func keep(sent: StreamedRequestBody?, limit: Int) {
        guard let sent else { return }
        requestBytes = sent.size
        if sent.kept.count <= limit { requestBody = sent.kept }
    }

    /// The hops' timings, nil when there were no redirects.
    private static func hopTimings(_ hops: [RedirectHop]) -> [PhaseTimings?]? {
        hops.isEmpty ? nil : hops.map(\.timings)
    }

    /// Keeps a body inline when it is within `limit` (read from its file if it was spilled); a
    /// download's file is named by its path; anything larger is named as omitted.
    private mutating func keep(_ body: ResponseBody?, limit: Int, keptBy: String) {
        guard let body, body.count > 0 else { return }
        if case .file(let file) = body, !file.isTemporary {
            bodyFile = file.url.path
        } else if body.count <= Int64(limit), let data = try? body.loadData() {
            self.body = data
        } else {
            bodyOmitted = "\(body.count) bytes, over the \(keptBy)'s \(limit)-byte body limit"
        }
    }
}

extension PhaseTimings {
    /// Each phase rounded to the microsecond (a whole −1 where not applicable), as plain lines write them.
    var toTheMicrosecond: PhaseTimings {
        func round(_ value: Double) -> Double { value < 0 ? -1 : (value * 1000).rounded() / 1000 }
        var rounded = PhaseTimings(dns: round(dns), connect: round(connect), tls: round(tls), send: round(send), wait: round(wait),
                                   receive: round(receive), total: round(total))
        rounded.redirect = round(redirect)
        return rounded
    }
}
