import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// One line of a journal written by reqtop before the journal format 2 (which writes `EventLine`s,
/// the schema JSON Lines and the event stream share): read, never written, so that the sessions
/// recorded then still open. The first line described the session; every other line was one event
/// of one task with the object of its kind (`created`, `sent`, `redirect`, `response`, `end`).
struct JournalV1Entry: Decodable {
    var task: Int?
    var time: Double?
    var event: String?
    var created: Created?
    var sent: Head?
    var redirect: Hop?
    var response: Response?
    var end: End?

    struct Created: Decodable {
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

    struct Head: Decodable {
        var url: HTTPURL
        var method: String
        var target: String
        var version: String
        var headers: [HTTPHeader]
        var size: Int
        var hop: Int
    }

    struct Response: Decodable {
        var url: HTTPURL
        var version: String
        var status: Int
        var reason: String
        var headers: [HTTPHeader]
        var size: Int
    }

    struct Hop: Decodable {
        var status: Int
        var from: HTTPURL
        var to: HTTPURL
        var response: Response
        var timings: PhaseTimings?
    }

    /// The end of a task: completed, failed or cancelled.
    struct End: Decodable {
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

// MARK: Entries as events

extension JournalV1Entry {
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
        case .progress, .test, .log, .message: return nil // (format 1 kept none of these)
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

extension JournalV1Entry.Response {
    var head: HTTPResponseHead {
        HTTPResponseHead(url: url, httpVersion: version, status: status, reason: reason, headers: headers, size: size)
    }
}

extension JournalV1Entry.Hop {
    var redirectHop: RedirectHop { RedirectHop(status: status, from: from, to: to, response: response.head, timings: timings) }
}

extension JournalV1Entry.End {
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
