import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Takes a streaming task's response as it arrives (a proxy hands it on to its client). Called on
/// the engine thread: keep each call short and never block in it.
public protocol ResponseStreamConsumer: AnyObject, Sendable {
    /// The final response head (not a 1xx, not a redirect the engine follows).
    func didReceiveResponse(_ head: HTTPResponseHead)
    /// The next body bytes, transfer coding removed, content coding as the server sent it (unless
    /// the request asked for decoding). Return false to take none of them: the transfer pauses and
    /// the same bytes are offered again after `HTTPTask.streamIsReady()`.
    func consume(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The task ended: nil on success, otherwise why (also `cancelled`). Called once.
    func didFinish(_ error: TransferError?)
}

/// Where a streaming task's request body comes from, as it arrives (a proxy's client sending it).
/// Called on the engine thread: never block in it.
public protocol RequestBodySource: AnyObject, Sendable {
    /// The body's length, or nil when unknown (then it is sent chunked).
    var length: Int64? { get }
    /// Fills `buffer` with the next bytes.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> RequestBodyRead
    /// Goes back to `offset` so the body can be sent again (libcurl retries a request on a fresh
    /// connection when a kept-alive one turns out closed); false when those bytes are gone.
    func rewind(to offset: Int64) -> Bool
}

extension RequestBodySource {
    /// A source that keeps nothing cannot go back.
    public func rewind(to offset: Int64) -> Bool { false }
}

/// What `RequestBodySource.read` produced.
public enum RequestBodyRead: Sendable {
    /// This many bytes were written into the buffer (more than 0).
    case bytes(Int)
    /// Nothing yet: the transfer pauses until `HTTPTask.streamIsReady()`.
    case wait
    /// The body is complete.
    case end
    /// The body cannot be completed (its client went away): the task fails.
    case failed(String)
    /// The body as the client framed it is malformed (a bad chunk size, say): the task fails with
    /// a `protocolError` saying what was wrong.
    case invalid(String)
}

/// How a streaming task runs.
public struct StreamOptions: Sendable {
    /// The first this-many response body bytes are also kept for observers (the `completed` or
    /// `failed` event's body; `bytes` has the whole size); the rest only passes through.
    public var keptBodyBytes: Int
    /// Send the request head as given: libcurl adds no `Accept` of its own (it still adds `Host`
    /// when the request has none, and the framing fields of the body).
    public var verbatimHead: Bool
    /// The first this-many bytes of a request body read from a `RequestBodySource` are kept and
    /// reported in the terminal event (`sentBody`), with the whole size.
    public var keptRequestBodyBytes: Int

    public init(keptBodyBytes: Int = 1 << 20, verbatimHead: Bool = true, keptRequestBodyBytes: Int = 1 << 20) {
        self.keptBodyBytes = keptBodyBytes
        self.verbatimHead = verbatimHead
        self.keptRequestBodyBytes = keptRequestBodyBytes
    }
}

/// What a task delegate holds for a streaming task.
struct TaskStream: Sendable {
    let consumer: any ResponseStreamConsumer
    let options: StreamOptions
}

extension SessionManager {
    /// A task whose response body is handed to `consumer` as it arrives instead of being collected,
    /// and whose request body (if any) is read from `body` as it becomes available — memory stays
    /// flat whatever the size, and either side can pause the transfer (back-pressure). It is a task
    /// like any other: created suspended, every lifecycle event on the bus, suspend/resume/cancel.
    public func streamTask(with request: HTTPRequest, body: (any RequestBodySource)? = nil, consumer: any ResponseStreamConsumer,
                           streamOptions: StreamOptions = StreamOptions(), options: TaskOptions = TaskOptions()) -> HTTPTask {
        let none: (@Sendable (TaskResponse<ResponseBody?>) -> Void)? = nil
        return makeTask(.data, request: request, destination: nil, serializer: ResponseBodySerializer(), options: options,
                        uploadProgress: nil, downloadProgress: nil, completion: none,
                        stream: TaskStream(consumer: consumer, options: streamOptions), bodySource: body)
    }

    /// A streaming task with a completion handler; `serializer` sees the kept part of the body.
    public func streamTask<S: ResponseSerializer>(with request: HTTPRequest, consumer: any ResponseStreamConsumer,
                                                  streamOptions: StreamOptions, serializer: S, options: TaskOptions = TaskOptions(),
                                                  completionHandler: @escaping @Sendable (TaskResponse<S.Value>) -> Void) -> HTTPTask {
        makeTask(.data, request: request, destination: nil, serializer: serializer, options: options, uploadProgress: nil,
                 downloadProgress: nil, completion: completionHandler, stream: TaskStream(consumer: consumer, options: streamOptions))
    }
}

/// A consumer that counts nothing and keeps nothing: for a body no one will read (a headless run
/// without `--har`), which is then neither held in memory nor written to a temp file.
public final class DiscardingConsumer: ResponseStreamConsumer {
    public init() {}
    public func didReceiveResponse(_ head: HTTPResponseHead) {}
    public func consume(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
    public func didFinish(_ error: TransferError?) {}
}

extension HTTPTask {
    /// Tells the engine that a paused stream can go on: the consumer has room again or the body
    /// source has bytes. Does nothing to a task that is suspended (its `resume()` goes on).
    public func streamIsReady() { manager.continueStream(self) }
}
