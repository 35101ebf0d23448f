import Foundation
import ReqtopNetworking

/// Everything the inspector knows about one task, built from its bus events.
public struct TaskRecord: Sendable {
    public let id: TaskID
    public var name: String?
    public var kind: TaskKind
    public var state: TaskState
    /// The request as it was given to the manager: what replay, edit and every export start from.
    public var request: HTTPRequest
    /// Each request head exactly as it went on the wire, one per hop of a redirect chain.
    public var sentHeads: [RequestHead] = []
    /// The final response head.
    public var response: HTTPResponseHead?
    /// Redirects followed, each with its response head (and its timings once the task ended).
    public var redirects: [RedirectHop] = []
    public var downloaded: Int64 = 0
    public var downloadTotal: Int64 = -1
    public var uploaded: Int64 = 0
    public var uploadTotal: Int64 = -1
    /// Seconds since 1970.
    public var createdAt: Double
    public var startedAt: Double?
    public var endedAt: Double?
    public var timings: PhaseTimings?
    public var error: TransferError?
    public var body: ResponseBody?
    /// The body was released to keep the session's memory bounded.
    public var bodyReleased = false
    /// Incremented on every event applied to this task (screens cache on it).
    public var revision = 0
    /// The task's lifecycle, one entry per event; consecutive progress events share one entry.
    public var timeline: [TimelineEntry] = []

    public var method: String { request.method }
    public var url: HTTPURL { request.url }
    public var host: String { url.host }

    /// Host with the port when the URL names one, as the table shows it.
    public var hostAndPort: String { url.authority }

    /// Path and query, as shown in the table.
    public var pathAndQuery: String { url.requestTarget }

    /// The exchanges of the task, one per hop: the request head as sent (the last one, if libcurl
    /// sent it again on a fresh connection) with the response it got — a redirect's, then the
    /// final one; nil while it is awaited or when none came.
    public var exchanges: [(request: RequestHead, response: HTTPResponseHead?)] {
        var lastHead: [Int: RequestHead] = [:]
        for head in sentHeads { lastHead[head.hop] = head }
        return lastHead.keys.sorted().map { hop in
            (lastHead[hop]!, hop < redirects.count ? redirects[hop].response : (hop == redirects.count ? response : nil))
        }
    }

    public var status: Int? { response?.status }

    /// Seconds from start to end (or to `now` while running).
    public func duration(now: Double) -> Double? {
        guard let startedAt else { return nil }
        return (endedAt ?? now) - startedAt
    }

    /// 0…1 for a download with a known size (or an upload before the response), nil otherwise.
    public var progressFraction: Double? {
        if state == .completed { return 1 }
        if response == nil, uploadTotal > 0 { return Double(uploaded) / Double(uploadTotal) }
        guard downloadTotal > 0 else { return nil }
        return min(1, Double(downloaded) / Double(downloadTotal))
    }
}

/// One step of a task's timeline: when and what, plus only what the record does not already hold
/// (a progress reading, which redirect hop, a completion's serializer). The Events tab formats it
/// with `payload(in:)`, so a finished task costs a few dozen bytes per step.
public struct TimelineEntry: Sendable {
    public let time: Double
    public let event: TaskEvent.Name
    let detail: Detail

    enum Detail: Sendable {
        case none
        case progress(TransferProgress)
        case hop(Int)
        /// Which of the record's `sentHeads`.
        case sent(Int)
        case completion(serializer: String, serializationError: String?)
    }

    /// The payload as readable lines (untrusted text: the UI sanitizes it when drawing).
    public func payload(in record: TaskRecord) -> [String] { EventDescription.payload(of: self, in: record) }
}
