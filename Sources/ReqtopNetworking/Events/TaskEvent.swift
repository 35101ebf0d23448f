import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One step in a task's lifecycle, as posted on the `EventBus`.
public struct TaskEvent: Sendable {
    public var task: TaskID
    /// Seconds since 1970 when the step happened.
    public var time: Double
    public var kind: Kind

    public init(task: TaskID, time: Double = TaskEvent.now(), kind: Kind) {
        self.task = task
        self.time = time
        self.kind = kind
    }

    /// Indirect: a payload (heads, timings, a completion) sits in one box, so handing an event on —
    /// to the pass's batch, to each observer's queue, to a printer — is one retain, not one per field.
    public indirect enum Kind: Sendable {
        case created(TaskDescription)
        /// The transfer started — it entered the engine's multi handle; a task resumed while the
        /// engine is at `maxConcurrentTasks` gets it when a slot frees — or continues after a pause.
        case resumed
        /// The task was suspended (paused in place, or taken out of the queue for a slot).
        case suspended
        /// The task was cancelled; the payload keeps what had happened by then (response head,
        /// partial body, timings), nil when the task was cancelled before anything was sent.
        case cancelled(TaskFailure?)
        /// A request head went on the wire, exactly as sent (one per hop of a redirect chain).
        case requestSent(RequestHead)
        case redirected(RedirectHop)
        case response(HTTPResponseHead)
        case progress(TransferProgress)
        case completed(TaskCompletion)
        case failed(TaskFailure)
        /// A script of the task's request list checked it (`client.test`, `client.assert`); posted by
        /// the runner when the response has arrived, just before the task's end.
        case test(TestResult)
        /// A script of the task's request list logged a line, or failed (`client.log`, an error).
        case scriptLog(ScriptLog)
        /// A message of a streamed response (server-sent event, NDJSON line, JSON array element),
        /// posted as it arrives, between `response` and the task's end.
        case message(StreamMessage)
    }

    /// The event's name, as in the JSON Lines schema and the notification names.
    public var name: Name {
        switch kind {
        case .created: .created
        case .resumed: .resumed
        case .suspended: .suspended
        case .cancelled: .cancelled
        case .requestSent: .request
        case .redirected: .redirected
        case .response: .response
        case .progress: .progress
        case .completed: .completed
        case .failed: .failed
        case .test: .test
        case .scriptLog: .log
        case .message: .message
        }
    }

    public enum Name: String, Sendable, CaseIterable {
        case created, resumed, suspended, cancelled, request, redirected, response, progress, completed, failed, test, log, message
    }

    /// Seconds since 1970, to the microsecond (the resolution of libcurl's timings; a printer writes
    /// such a number from its digits).
    public static func now() -> Double {
        (Date().timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000
    }

    /// True for the events that end a task: completed, failed, cancelled.
    public var isTerminal: Bool { name == .completed || name == .failed || name == .cancelled }
}

/// What a task was created to do.
public struct TaskDescription: Sendable {
    public var kind: TaskKind
    public var name: String?
    /// The request as given to the manager: enough to send it again.
    public var request: HTTPRequest
    /// Where a download task writes its body.
    public var destination: URL?

    public init(kind: TaskKind, name: String? = nil, request: HTTPRequest, destination: URL? = nil) {
        self.kind = kind
        self.name = name
        self.request = request
        self.destination = destination
    }

    public var method: String { request.method }
    public var url: HTTPURL { request.url }
}

/// Bytes moved so far in one direction.
public struct TransferProgress: Sendable, Hashable {
    public enum Direction: String, Sendable { case upload, download }
    public var direction: Direction
    public var completed: Int64
    /// −1 when the total is not known.
    public var total: Int64

    public init(direction: Direction, completed: Int64, total: Int64) {
        self.direction = direction
        self.completed = completed
        self.total = total
    }

    /// 0…1, or nil when the total is unknown.
    public var fraction: Double? { total > 0 ? min(1, Double(completed) / Double(total)) : nil }
}

/// The payload of `completed` — what AFNetworking's user-info carried.
public struct TaskCompletion: Sendable {
    public var response: HTTPResponseHead
    public var body: ResponseBody?
    public var bytes: Int64
    public var timings: PhaseTimings
    public var redirects: [RedirectHop]
    public var serializer: String
    public var serializedValue: (any Sendable)?
    public var serializationError: String?
    /// The request body a streaming task read from its source and sent (nil for every other task:
    /// their request holds the body).
    public var sentBody: StreamedRequestBody?
    /// The connection of the last exchange (nil when unknown).
    public var connection: TransferConnection?

    public init(response: HTTPResponseHead, body: ResponseBody?, bytes: Int64, timings: PhaseTimings, redirects: [RedirectHop],
                serializer: String, serializedValue: (any Sendable)?, serializationError: String?, sentBody: StreamedRequestBody? = nil,
                connection: TransferConnection? = nil) {
        self.sentBody = sentBody
        self.connection = connection
        self.response = response
        self.body = body
        self.bytes = bytes
        self.timings = timings
        self.redirects = redirects
        self.serializer = serializer
        self.serializedValue = serializedValue
        self.serializationError = serializationError
    }
}

/// The payload of `failed`: the error and whatever had arrived before it.
public struct TaskFailure: Sendable {
    public var error: TransferError
    public var response: HTTPResponseHead?
    public var bytes: Int64
    public var timings: PhaseTimings?
    public var redirects: [RedirectHop]
    /// The part of the body that arrived before the failure, in memory or in the file it was written
    /// to (a download's destination, a spilled body); nil when none arrived.
    public var partialBody: ResponseBody?
    /// The request body a streaming task had read from its source and sent (nil for every other task).
    public var sentBody: StreamedRequestBody?
    /// The connection of the last exchange, when one was made.
    public var connection: TransferConnection?

    public init(error: TransferError, response: HTTPResponseHead?, bytes: Int64, timings: PhaseTimings?, redirects: [RedirectHop],
                partialBody: ResponseBody? = nil, sentBody: StreamedRequestBody? = nil, connection: TransferConnection? = nil) {
        self.sentBody = sentBody
        self.connection = connection
        self.error = error
        self.response = response
        self.bytes = bytes
        self.timings = timings
        self.redirects = redirects
        self.partialBody = partialBody
    }
}

/// The request body of a streaming task as it went on the wire, read from its `RequestBodySource`
/// (a proxy's client sending it): the task's `HTTPRequest` has no body, so this is the record of
/// it — the first `StreamOptions.keptRequestBodyBytes` bytes and how many were sent in all.
public struct StreamedRequestBody: Sendable, Equatable {
    /// The first bytes sent (all of them when `isWhole`).
    public var kept: Data
    /// How many bytes were sent.
    public var size: Int64

    public init(kept: Data, size: Int64) {
        self.kept = kept
        self.size = size
    }

    /// Every byte sent was kept: the body can be sent again as it was.
    public var isWhole: Bool { Int64(kept.count) == size }
}
