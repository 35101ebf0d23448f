import ReqtopNetworking

/// Everything the inspector knows about one task, built from its bus events.
package struct TaskRecord: Sendable {
    package let id: TaskID
    package var name: String?
    package var kind: TaskKind
    package var state: TaskState
    /// The request as it was given to the manager: what replay, edit and every export start from.
    package var request: HTTPRequest
    /// Each request head exactly as it went on the wire, one per hop of a redirect chain.
    package var sentHeads: [RequestHead] = []
    /// The final response head.
    package var response: HTTPResponseHead?
    /// Redirects followed, each with its response head (and its timings once the task ended).
    package var redirects: [RedirectHop] = []
    package var downloaded: Int64 = 0
    package var downloadTotal: Int64 = -1
    package var uploaded: Int64 = 0
    package var uploadTotal: Int64 = -1
    /// Seconds since 1970.
    package var createdAt: Double
    package var startedAt: Double?
    package var endedAt: Double?
    package var timings: PhaseTimings?
    package var error: TransferError?
    package var body: ResponseBody?
    /// What its list's scripts checked (`client.test`), in order.
    package var tests: [TestResult] = []
    /// What its list's scripts logged, and their errors.
    package var scriptLogs: [ScriptLog] = []
    /// The connection its last exchange used (known once it ended).
    package var connection: TransferConnection?
    /// The messages of a streamed response (server-sent events, NDJSON), nil for any other response.
    package var messages: StreamMessageLog?
    /// How many request body bytes were sent when the body streamed in as it went (a proxied
    /// client's): `request.body` holds what was kept of it, all of it unless this is larger.
    package var streamedBodyBytes: Int64?
    /// The body was released to keep the session's memory bounded.
    package var bodyReleased = false
    /// Incremented on every event applied to this task (screens cache on it).
    package var revision = 0
    /// The task's lifecycle, one entry per event; consecutive progress events share one entry.
    package var timeline: [TimelineEntry] = []

    package var method: String { request.method }
    package var url: HTTPURL { request.url }
    package var host: String { url.host }

    /// Host with the port when the URL names one, as the table shows it; a CONNECT tunnel's
    /// `host:port` always, its whole request target (authority-form).
    package var hostAndPort: String {
        guard isTunnel else { return url.authority }
        return (url.host.containsBytes(":") ? "[\(url.host)]" : url.host) + ":\(url.effectivePort)"
    }

    /// Path and query, as shown in the table; nothing for a CONNECT tunnel, which has no path.
    package var pathAndQuery: String { isTunnel ? "" : url.requestTarget }

    /// A CONNECT: the proxy's tunnel to `host:port`.
    package var isTunnel: Bool { request.method == "CONNECT" }

    /// A WebSocket the proxy relayed (`ws://`): its messages are in `messages`, in both directions.
    package var isWebSocket: Bool { url.scheme == "ws" || url.scheme == "wss" || messages?.format == .websocket }

    /// The exchanges of the task, one per hop: the request head as sent (the last one, if libcurl
    /// sent it again on a fresh connection) with the response it got — a redirect's, then the
    /// final one; nil while it is awaited or when none came.
    package var exchanges: [(request: RequestHead, response: HTTPResponseHead?)] {
        var lastHead: [Int: RequestHead] = [:]
        for head in sentHeads { lastHead[head.hop] = head }
        return lastHead.keys.sorted().map { hop in
            (lastHead[hop]!, hop < redirects.count ? redirects[hop].response : (hop == redirects.count ? response : nil))
        }
    }

    package var status: Int? { response?.status }

    /// Records a body that streamed in as it was sent: the request now holds it (or its start).
    package mutating func keepStreamedBody(_ sent: StreamedRequestBody) {
        request.body = .data(sent.kept)
        streamedBodyBytes = sent.size
    }

    /// Why the request cannot be sent again as it went, nil when it can: a tunnel has no request
    /// in it; a body that streamed through (a proxied client's) was cut, or not kept at all.
    package var resendRefusal: String? {
        if isTunnel, name == "tunnel" { return "task \(id) is a CONNECT tunnel: there is no request in it reqtop could send again" }
        if isWebSocket {
            return "task \(id) is a WebSocket: its messages went both ways over a connection reqtop relayed, and it does not open WebSockets itself"
        }
        if let sent = streamedBodyBytes, case .data(let kept) = request.body, Int64(kept.count) < sent {
            return "\(id)'s body streamed through the proxy and only its first \(kept.count) of \(sent) bytes were kept: "
                + "cannot resend it as it was"
        }
        func announcesBody(_ headers: [HTTPHeader]) -> Bool {
            (Int(headers.value(for: "Content-Length") ?? "0") ?? 1) > 0 || headers.contains(name: "Transfer-Encoding")
        }
        let announcesBody = announcesBody(request.headers) || sentHeads.first.map { announcesBody($0.headers) } == true
        if case .none = request.body, announcesBody {
            // A proxied request whose body streamed through unrecorded (a session from an older reqtop, a task that
            // never sent it): its head alone would go out without the body.
            return "\(id)'s body streamed through the proxy unkept: cannot resend it as it was"
        }
        return nil
    }

    /// Created and not started yet — its transfer waits for a free slot (`resumed` comes when it
    /// starts) — and not suspended by anyone.
    package var isWaitingToStart: Bool {
        state == .suspended && startedAt == nil && !timeline.contains { $0.event == .suspended }
    }

    /// Seconds from start to end (or to `now` while running).
    package func duration(now: Double) -> Double? {
        guard let startedAt else { return nil }
        return (endedAt ?? now) - startedAt
    }

    /// Milliseconds the task spent suspended after it first started (until `now` while still suspended).
    package func pausedMilliseconds(now: Double) -> Double {
        var paused = 0.0
        var since: Double?
        var started = false
        for entry in timeline {
            switch entry.event {
            case .resumed:
                if let start = since { paused += entry.time - start }
                since = nil
                started = true
            case .suspended where started: since = entry.time
            default: break
            }
        }
        if let since { paused += (endedAt ?? now) - since }
        return paused * 1000
    }

    /// 0…1 for a download with a known size (or an upload before the response), nil otherwise.
    package var progressFraction: Double? {
        if state == .completed { return 1 }
        if response == nil, uploadTotal > 0 { return Double(uploaded) / Double(uploadTotal) }
        guard downloadTotal > 0 else { return nil }
        return min(1, Double(downloaded) / Double(downloadTotal))
    }
}

/// One step of a task's timeline: when and what, plus only what the record does not already hold
/// (a progress reading, which redirect hop, a completion's serializer). The Events tab formats it
/// with `payload(in:)`, so a finished task costs a few dozen bytes per step.
package struct TimelineEntry: Sendable {
    package let time: Double
    package let event: TaskEvent.Name
    let detail: Detail

    enum Detail: Sendable {
        case none
        case progress(TransferProgress)
        case hop(Int)
        /// Which of the record's `sentHeads`.
        case sent(Int)
        case completion(serializer: String, serializationError: String?)
        /// Which of the record's `tests`.
        case test(Int)
        /// Which of the record's `scriptLogs`.
        case log(Int)
        /// A run of consecutive messages: the first's number, and how many (one entry, not one each).
        case messages(first: Int, count: Int)
    }

    /// The payload as readable lines (untrusted text: the UI sanitizes it when drawing).
    package func payload(in record: TaskRecord) -> [String] { EventDescription.payload(of: self, in: record) }
}
