import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// What one transfer produced, handed from the engine thread to serialization and the completion
/// handler. A class: it passes through several hands per task, each a single retain (as a struct,
/// each copy retained every field).
final class FinishedTransfer: Sendable {
    let head: HTTPResponseHead?
    let body: ResponseBody?
    let bytes: Int64
    let redirects: [RedirectHop]
    /// Each request head as it went on the wire, one per hop.
    let sentHeads: [RequestHead]
    let timings: PhaseTimings?
    let error: TransferError?
    /// What a streaming task read from its body source and sent.
    let sentBody: StreamedRequestBody?
    let connection: TransferConnection?

    init(head: HTTPResponseHead?, body: ResponseBody?, bytes: Int64, redirects: [RedirectHop], sentHeads: [RequestHead],
         timings: PhaseTimings?, error: TransferError?, sentBody: StreamedRequestBody? = nil, connection: TransferConnection? = nil) {
        self.head = head
        self.body = body
        self.bytes = bytes
        self.redirects = redirects
        self.sentHeads = sentHeads
        self.timings = timings
        self.error = error
        self.sentBody = sentBody
        self.connection = connection
    }
}

/// Reports progress to a task's progress handler.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

/// The per-task delegate (AFNetworking's `AFURLSessionManagerTaskDelegate`), registered by task
/// identifier: what a task was created with — its request, download file, memory cap, validation,
/// progress and completion handlers — and how to turn what its transfer produced into a response.
/// Immutable and Sendable; what changes while the task runs (the head being parsed, the body, the
/// upload position, redirect hops) is its `TransferState`, which only the engine thread touches.
final class TaskDelegate: Sendable {
    let task: HTTPTask
    /// The request as created (each redirect hop's is in the transfer state).
    let request: TransferRequest
    let destination: URL?
    let memoryCap: Int
    /// A spilled (temporary) body fails the task past this size.
    let spillCap: Int64
    /// A decoded body may be at most this many times what arrived compressed (nil: no limit).
    let maxDecodedRatio: Double?
    /// A streamed response's messages keep this many bytes of data each; nil: none are split out.
    let keptStreamMessageBytes: Int?
    let validation: ResponseValidation
    let uploadProgress: ProgressHandler?
    let downloadProgress: ProgressHandler?
    let completionQueue: DispatchQueue
    /// The body so far, for a live view; nil unless the configuration asks for one.
    let preview: BodyPreview?
    /// A streaming task's consumer and options; nil for a task that collects its body.
    let stream: TaskStream?
    /// The serializer does not read the body: `respond` runs on the completion queue, not the serialization queue.
    let serializesOnCompletionQueue: Bool
    /// `respond` and the completion handler run on the engine thread (`TaskOptions.completesOnEngineThread`).
    let completesOnEngineThread: Bool
    /// Serializes a finished transfer and returns the completion handler call and the terminal event.
    let respond: @Sendable (FinishedTransfer) -> (handler: @Sendable () -> Void, event: TaskEvent.Kind)

    init(task: HTTPTask, request: TransferRequest, destination: URL?, memoryCap: Int, validation: ResponseValidation,
         uploadProgress: ProgressHandler?, downloadProgress: ProgressHandler?, completionQueue: DispatchQueue,
         previewLimit: Int = 0, spillCap: Int64 = .max, maxDecodedRatio: Double? = nil, keptStreamMessageBytes: Int? = nil, stream: TaskStream? = nil,
         serializesOnCompletionQueue: Bool = false, completesOnEngineThread: Bool = false, respond: @escaping @Sendable (FinishedTransfer) -> (handler: @Sendable () -> Void, event: TaskEvent.Kind)) {
        self.task = task
        self.request = request
        self.destination = destination
        self.memoryCap = memoryCap
        self.spillCap = spillCap
        self.maxDecodedRatio = maxDecodedRatio
        self.keptStreamMessageBytes = keptStreamMessageBytes
        self.validation = validation
        self.uploadProgress = uploadProgress
        self.downloadProgress = downloadProgress
        self.completionQueue = completionQueue
        preview = previewLimit > 0 ? BodyPreview(limit: previewLimit) : nil
        self.stream = stream
        self.serializesOnCompletionQueue = serializesOnCompletionQueue
        self.completesOnEngineThread = completesOnEngineThread
        self.respond = respond
    }

    /// The result of a task the engine never had: cancelled before it started — or failed with
    /// `error` (refused because the manager was invalidated).
    func unsent(error: TransferError?) -> FinishedTransfer {
        FinishedTransfer(head: nil, body: nil, bytes: 0, redirects: [], sentHeads: [], timings: nil,
                         error: error ?? TransferError(code: .cancelled, message: "cancelled"))
    }
}
