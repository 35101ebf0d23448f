import Foundation
import ReqtopNetworking

/// One line of a session journal, as JSON: the first line describes the session (`journal`,
/// `session`), every other line is one lifecycle event of one task with everything the inspector
/// needs to show it again — the request as given, each head as sent, response heads, redirect hops,
/// timings, errors and the body (base64, up to the journal's body limit; a larger one is named in
/// `bodyOmitted`). Progress events are not kept (the end event has the byte count).
struct JournalEntry: Codable {
    /// The journal format version; only on the first line.
    var journal: Int?
    var session: JournalSessionInfo?

    var task: Int?
    var time: Double?
    var event: String?
    var created: Created?
    var sent: Head?
    var redirect: Hop?
    var response: Response?
    var end: End?

    struct Created: Codable {
        var kind: String
        var name: String?
        var method: String
        var url: HTTPURL
        var headers: [HTTPHeader]
        var body: Data?
        var bodyFile: String?
        var timeout: Double?
        var followRedirects: Bool?
        var maxRedirects: Int?
        var trustedRedirects: Bool?
        var insecure: Bool?
        var compressed: Bool?
        var omittedHeaders: [String]?
    }

    struct Head: Codable {
        var url: HTTPURL
        var method: String
        var target: String
        var version: String
        var headers: [HTTPHeader]
        var size: Int
        var hop: Int
    }

    struct Response: Codable {
        var url: HTTPURL
        var version: String
        var status: Int
        var reason: String
        var headers: [HTTPHeader]
        var size: Int
    }

    struct Hop: Codable {
        var status: Int
        var from: HTTPURL
        var to: HTTPURL
        var response: Response
        var timings: PhaseTimings?
    }

    /// The end of a task: completed, failed or cancelled.
    struct End: Codable {
        var response: Response?
        var bytes: Int64
        var timings: PhaseTimings?
        var redirects: [Hop]
        var body: Data?
        var bodyFile: String?
        var bodyOmitted: String?
        var errorCode: String?
        var errorMessage: String?
        var errorCurlCode: Int?
        var serializer: String?
        var serializationError: String?
    }
}

/// What the first line of a journal says about the session.
package struct JournalSessionInfo: Codable, Sendable {
    package var id: String
    /// Seconds since 1970.
    package var started: Double
    /// What the session replayed or showed: a list's file names, a URL, "interactive session".
    package var source: String
    package var pid: Int32
    package var version: String
}

// MARK: Events ⇄ entries

extension JournalEntry {
    /// The entry for `event` (nil for progress, which the journal does not keep); a body larger
    /// than `bodyLimit` is left out and named.
    init?(_ event: TaskEvent, bodyLimit: Int) {
        task = event.task.rawValue
        time = event.time
        self.event = event.name.rawValue
        switch event.kind {
        case .progress: return nil
        case .created(let d):
            let r = d.request
            var bodyFile: String?
            if case .file(let path) = r.body { bodyFile = path }
            created = Created(kind: d.kind.rawValue, name: d.name, method: r.method, url: r.url, headers: r.headers, body: r.body.data,
                              bodyFile: bodyFile, timeout: r.options.timeout, followRedirects: r.options.followRedirects,
                              maxRedirects: r.options.maxRedirects, trustedRedirects: r.options.trustedRedirects,
                              insecure: r.options.insecure, compressed: r.options.compressed, omittedHeaders: r.options.omittedHeaders)
        case .resumed, .suspended: break
        case .requestSent(let h):
            sent = Head(url: h.url, method: h.method, target: h.target, version: h.httpVersion, headers: h.headers, size: h.size, hop: h.hop)
        case .redirected(let hop): redirect = Hop(hop)
        case .response(let head): response = Response(head)
        case .completed(let c):
            end = End(response: Response(c.response), bytes: c.bytes, timings: c.timings, redirects: c.redirects.map(Hop.init),
                      serializer: c.serializer, serializationError: c.serializationError)
            end?.keep(c.body, limit: bodyLimit)
        case .failed(let f):
            end = End(failure: f, limit: bodyLimit)
        case .cancelled(let f):
            end = f.map { End(failure: $0, limit: bodyLimit) } ?? End(bytes: 0, redirects: [])
        }
    }

    /// The event this entry records, nil for the session line or an entry this version cannot read.
    var taskEvent: TaskEvent? {
        guard let task, let time, let event, let name = TaskEvent.Name(rawValue: event) else { return nil }
        let kind: TaskEvent.Kind
        switch name {
        case .created:
            guard let c = created else { return nil }
            let body: HTTPRequest.Body = c.bodyFile.map { .file(path: $0) } ?? c.body.map { .data($0) } ?? .none
            let options = HTTPRequest.Options(timeout: c.timeout, followRedirects: c.followRedirects, maxRedirects: c.maxRedirects,
                                              trustedRedirects: c.trustedRedirects, insecure: c.insecure, compressed: c.compressed,
                                              omittedHeaders: c.omittedHeaders)
            let request = HTTPRequest(method: c.method, url: c.url, headers: c.headers, body: body, options: options)
            kind = .created(TaskDescription(kind: TaskKind(rawValue: c.kind) ?? .data, name: c.name, request: request))
        case .resumed: kind = .resumed
        case .suspended: kind = .suspended
        case .request:
            guard let h = sent else { return nil }
            kind = .requestSent(RequestHead(url: h.url, method: h.method, target: h.target, httpVersion: h.version, headers: h.headers,
                                            size: h.size, hop: h.hop))
        case .redirected:
            guard let hop = redirect else { return nil }
            kind = .redirected(hop.redirectHop)
        case .response:
            guard let head = response else { return nil }
            kind = .response(head.head)
        case .progress: return nil
        case .completed:
            guard let end, let head = end.response else { return nil }
            kind = .completed(TaskCompletion(response: head.head, body: end.responseBody, bytes: end.bytes, timings: end.timings ?? .unknown,
                                             redirects: end.redirects.map(\.redirectHop), serializer: end.serializer ?? "raw",
                                             serializedValue: nil, serializationError: end.serializationError))
        case .failed:
            guard let end else { return nil }
            kind = .failed(end.failure)
        case .cancelled:
            kind = .cancelled(end.map { $0.bytes > 0 || $0.response != nil ? $0.failure : nil } ?? nil)
        }
        return TaskEvent(task: TaskID(rawValue: task), time: time, kind: kind)
    }
}

extension JournalEntry.Response {
    init(_ h: HTTPResponseHead) {
        self.init(url: h.url, version: h.httpVersion, status: h.status, reason: h.reason, headers: h.headers, size: h.size)
    }

    var head: HTTPResponseHead {
        HTTPResponseHead(url: url, httpVersion: version, status: status, reason: reason, headers: headers, size: size)
    }
}

extension JournalEntry.Hop {
    init(_ hop: RedirectHop) {
        self.init(status: hop.status, from: hop.from, to: hop.to, response: .init(hop.response), timings: hop.timings)
    }

    var redirectHop: RedirectHop { RedirectHop(status: status, from: from, to: to, response: response.head, timings: timings) }
}

extension JournalEntry.End {
    init(bytes: Int64, redirects: [JournalEntry.Hop]) {
        self.init(response: nil, bytes: bytes, timings: nil, redirects: redirects)
    }

    init(failure f: TaskFailure, limit: Int) {
        self.init(response: f.response.map(JournalEntry.Response.init), bytes: f.bytes, timings: f.timings,
                  redirects: f.redirects.map(JournalEntry.Hop.init), errorCode: f.error.code.rawValue, errorMessage: f.error.message,
                  errorCurlCode: f.error.curlCode)
        keep(f.partialBody, limit: limit)
    }

    /// Keeps the body inline when it is within `limit` (read from its file if it was spilled); a
    /// download's file is referenced by path; anything else is named as omitted.
    mutating func keep(_ body: ResponseBody?, limit: Int) {
        guard let body else { return }
        if case .file(let file) = body, !file.isTemporary {
            bodyFile = file.url.path
        } else if body.count <= Int64(limit), let data = try? body.loadData() {
            self.body = data
        } else {
            bodyOmitted = "\(body.count) bytes, over the journal's \(limit)-byte body limit"
        }
    }

    var responseBody: ResponseBody? {
        if let body { return .data(body) }
        if let bodyFile, FileManager.default.fileExists(atPath: bodyFile) { return .file(BodyFile(existing: URL(fileURLWithPath: bodyFile))) }
        return nil
    }

    var failure: TaskFailure {
        let code = errorCode.flatMap(TransferError.Code.init(rawValue:)) ?? .other
        return TaskFailure(error: TransferError(code: code, message: errorMessage ?? code.rawValue, curlCode: errorCurlCode),
                           response: response?.head, bytes: bytes,
                           timings: timings, redirects: redirects.map(\.redirectHop), partialBody: responseBody)
    }
}
