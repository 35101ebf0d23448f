import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// Creates and drives HTTP tasks on one libcurl engine, in the manner of AFNetworking's
/// `AFURLSessionManager`: every task gets its own task delegate, kept in a registry keyed by task
/// identifier; the session-level delegate forwards each engine callback to it; results come back
/// through completion handlers (on `configuration.completionQueue`) and as events on `bus`.
///
/// ```swift
/// let manager = SessionManager()
/// manager.bus.subscribe { event in print(event.task, event.name) }
/// let request = HTTPRequest(method: "GET", url: HTTPURL(string: "http://127.0.0.1:8080/get")!)
/// let task = manager.dataTask(with: request) { response in print(response.head?.status ?? 0) }
/// try task.resume()
/// ```
public final class SessionManager: Sendable {
    public let configuration: SessionConfiguration
    /// Every lifecycle step of every task of this manager.
    public let bus: EventBus
    private let registry = TaskDelegateRegistry()
    private let engine: CurlEngine
    private let nextID: Protected<Int>

    public init(configuration: SessionConfiguration = SessionConfiguration(), bus: EventBus = EventBus()) {
        self.configuration = configuration
        self.bus = bus
        nextID = Protected(max(1, configuration.firstTaskID))
        engine = CurlEngine(registry: registry, bus: bus, maxConcurrent: configuration.maxConcurrentTasks,
                            maxPerHost: configuration.maxConcurrentTasksPerHost)
        SpillFolders.removeFoldersOfDeadProcessesOnce
        publishIfAsked()
    }

    deinit { engine.enqueue(.shutdown) }

    /// `REQTOP_SOCKET=PATH` in the environment: the first manager of the process publishes its
    /// events there (see `publishEvents`), so an app can be watched with `reqtop attach` without a
    /// code change. A path another process is serving is left alone (said on stderr).
    private static let environmentSocketClaimed = Protected(false)
    private let environmentPublisher = Protected<EventPublisher?>(nil)

    private func publishIfAsked() {
        // getenv, not ProcessInfo's dictionary of the whole environment: this runs for every manager.
        guard let value = getenv("REQTOP_SOCKET"), case let path = String(cString: value), !path.isEmpty,
              Self.environmentSocketClaimed.withLock({ claimed in defer { claimed = true }; return !claimed }) else { return }
        do {
            let publisher = try EventPublisher(manager: self, path: path, options: EventStreamOptions())
            environmentPublisher.withLock { $0 = publisher }
        } catch {
            writeToStandardError("reqtop: REQTOP_SOCKET=\(path): cannot publish events there (\(error))\n")
        }
    }

    /// How many tasks have a registered delegate: created and not yet ended. 0 when all have finished.
    public var registeredTaskCount: Int { registry.count }

    /// Deletes every spilled body file of this process. Call it before `exit()`, which skips the
    /// deinitializers that would otherwise delete them one by one.
    public static func removeTemporaryFiles() {
        guard FileSink.folderMade.snapshot else { return } // nothing was spilled: nothing to scan or delete
        try? FileManager.default.removeItem(at: FileSink.temporaryFolder)
    }

    /// The first body bytes of a running task (up to `liveBodyPreviewBytes`), nil once it has ended
    /// or when the configuration keeps no preview.
    func bodyReceivedSoFar(_ id: TaskID) -> Data? { registry.peek(id)?.preview?.snapshot }

    /// The task with this identifier, while it has not ended.
    public func task(withID id: TaskID) -> HTTPTask? { registry.peek(id)?.task }

    /// Cancels every task and stops the engine thread. The manager creates no tasks afterwards.
    /// - Parameter waitingForTheEngine: false returns without waiting for the engine thread to close its
    ///   connections and end — for a process about to exit, whose connections the kernel closes
    ///   (a one-request `reqtop run` spent 0.3–0.45 ms waiting).
    public func invalidate(waitingForTheEngine: Bool = true) {
        environmentPublisher.withLock { $0?.stop(); $0 = nil }
        for delegate in registry.all { try? delegate.task.cancel() }
        engine.stop(waiting: waitingForTheEngine)
    }

    // MARK: Creating tasks

    /// A data task observed only through the bus (no completion handler; its body is never read back).
    public func dataTask(with request: HTTPRequest, options: TaskOptions = TaskOptions()) -> HTTPTask {
        let none: (@Sendable (TaskResponse<ResponseBody?>) -> Void)? = nil
        return makeTask(.data, request: request, destination: nil, serializer: ResponseBodySerializer(), options: options,
                        uploadProgress: nil, downloadProgress: nil, completion: none)
    }

    /// A task whose body is kept in memory (spilled to a temp file past `maxBodyBytesInMemory`).
    public func dataTask(with request: HTTPRequest, options: TaskOptions = TaskOptions(),
                         uploadProgress: ProgressHandler? = nil, downloadProgress: ProgressHandler? = nil,
                         completionHandler: @escaping @Sendable (TaskResponse<Data>) -> Void) -> HTTPTask {
        dataTask(with: request, serializer: RawResponseSerializer(), options: options, uploadProgress: uploadProgress,
                 downloadProgress: downloadProgress, completionHandler: completionHandler)
    }

    /// A data task whose body is turned into a value by `serializer`, off the engine thread.
    public func dataTask<S: ResponseSerializer>(with request: HTTPRequest, serializer: S, options: TaskOptions = TaskOptions(),
                                                uploadProgress: ProgressHandler? = nil, downloadProgress: ProgressHandler? = nil,
                                                completionHandler: @escaping @Sendable (TaskResponse<S.Value>) -> Void) -> HTTPTask {
        makeTask(.data, request: request, destination: nil, serializer: serializer, options: options,
                 uploadProgress: uploadProgress, downloadProgress: downloadProgress, completion: completionHandler)
    }

    /// A task that streams its body into `destination` (created or truncated); memory stays flat.
    public func downloadTask(with request: HTTPRequest, destination: URL, options: TaskOptions = TaskOptions(),
                             progress: ProgressHandler? = nil,
                             completionHandler: @escaping @Sendable (TaskResponse<URL>) -> Void) -> HTTPTask {
        makeTask(.download, request: request, destination: destination,
                 serializer: DestinationSerializer(destination: destination), options: options, uploadProgress: nil,
                 downloadProgress: progress, completion: completionHandler)
    }

    /// A task that sends `data` as the request body (replacing the request's own).
    public func uploadTask(with request: HTTPRequest, from data: Data, options: TaskOptions = TaskOptions(),
                           progress: ProgressHandler? = nil,
                           completionHandler: @escaping @Sendable (TaskResponse<Data>) -> Void) -> HTTPTask {
        var request = request
        request.body = .data(data)
        return makeTask(.upload, request: request, destination: nil, serializer: RawResponseSerializer(),
                        options: options, uploadProgress: progress, downloadProgress: nil, completion: completionHandler)
    }

    /// A task that streams the file at `fileURL` as the request body. A file whose size is unknown
    /// (a pipe) is sent chunked; a file that cannot be read fails the task.
    public func uploadTask(with request: HTTPRequest, fromFile fileURL: URL, options: TaskOptions = TaskOptions(),
                           progress: ProgressHandler? = nil,
                           completionHandler: @escaping @Sendable (TaskResponse<Data>) -> Void) -> HTTPTask {
        var request = request
        request.body = .file(path: fileURL.path)
        return makeTask(.upload, request: request, destination: nil, serializer: RawResponseSerializer(),
                        options: options, uploadProgress: progress, downloadProgress: nil, completion: completionHandler)
    }

    /// A task identifier no task of this manager has or will have: for events about work that is
    /// not an HTTP task but belongs on the same bus (a proxy's CONNECT tunnel).
    public func reserveTaskID() -> TaskID {
        TaskID(rawValue: nextID.withLock { id in defer { id += 1 }; return id })
    }

    func makeTask<S: ResponseSerializer>(
        _ kind: TaskKind, request: HTTPRequest, destination: URL?, serializer: S,
        options: TaskOptions, uploadProgress: ProgressHandler?, downloadProgress: ProgressHandler?,
        completion: (@Sendable (TaskResponse<S.Value>) -> Void)?, stream: TaskStream? = nil, bodySource: (any RequestBodySource)? = nil
    ) -> HTTPTask {
        let id = reserveTaskID()
        let task = HTTPTask(id: id, kind: kind, request: request, name: options.name, manager: self)
        var transfer = TransferRequest(request, configuration: configuration)
        transfer.bodySource = bodySource
        transfer.verbatimHead = stream?.options.verbatimHead ?? false
        let respond = Self.responder(task: id, request: request, serializer: serializer, completion: completion)
        let delegate = TaskDelegate(task: task, request: transfer, destination: destination,
                                    memoryCap: configuration.maxBodyBytesInMemory,
                                    validation: options.validation ?? configuration.validation,
                                    uploadProgress: uploadProgress, downloadProgress: downloadProgress,
                                    completionQueue: configuration.completionQueue,
                                    previewLimit: configuration.liveBodyPreviewBytes,
                                    spillCap: configuration.maxSpilledBodyBytes, maxDecodedRatio: configuration.maxDecodedRatio,
                                    keptStreamMessageBytes: configuration.keptStreamMessageBytes,
                                    stream: stream, serializesOnCompletionQueue: !serializer.readsBody,
                                    completesOnEngineThread: options.completesOnEngineThread && !serializer.readsBody, respond: respond)
        registry.register(delegate)
        bus.post(TaskEvent(task: id, kind: .created(TaskDescription(kind: kind, name: options.name, request: request,
                                                                    destination: destination))))
        return task
    }

    /// Builds the off-engine-thread step: serialize, make the response, pick the terminal event.
    private static func responder<S: ResponseSerializer>(
        task: TaskID, request: HTTPRequest, serializer: S, completion: (@Sendable (TaskResponse<S.Value>) -> Void)?
    ) -> @Sendable (FinishedTransfer) -> (handler: @Sendable () -> Void, event: TaskEvent.Kind) {
        { finished in
            var result: Result<S.Value, TransferError>
            var serializationError: String?
            if let error = finished.error {
                result = .failure(error)
            } else {
                do {
                    result = .success(try serializer.serialize(head: finished.head!, body: finished.body))
                } catch {
                    serializationError = "\(error)"
                    result = .failure(TransferError(code: .serializationFailed, message: "\(error)"))
                }
            }
            let response = TaskResponse(task: task, request: request, head: finished.head, body: finished.body,
                                        bytes: finished.bytes, redirects: finished.redirects, sentHeads: finished.sentHeads,
                                        timings: finished.timings, result: result)
            let event: TaskEvent.Kind
            if let error = finished.error {
                let failure = TaskFailure(error: error, response: finished.head, bytes: finished.bytes, timings: finished.timings,
                                          redirects: finished.redirects, partialBody: finished.body.flatMap { $0.count > 0 ? $0 : nil },
                                          sentBody: finished.sentBody, connection: finished.connection)
                if error.code != .cancelled {
                    event = .failed(failure)
                } else {
                    event = .cancelled(finished.sentHeads.isEmpty && finished.head == nil ? nil : failure)
                }
            } else {
                event = .completed(TaskCompletion(
                    response: finished.head!, body: finished.body, bytes: finished.bytes,
                    timings: finished.timings ?? .unknown, redirects: finished.redirects, serializer: serializer.name,
                    serializedValue: response.value, serializationError: serializationError, sentBody: finished.sentBody,
                    connection: finished.connection))
            }
            return ({ completion?(response) }, event)
        }
    }

    /// Runs `work` after the completion handler that calls this and the terminal event it is
    /// followed by: at the end of the engine's pass when the handler runs on the engine thread
    /// (`TaskOptions.completesOnEngineThread`), else on the completion queue.
    package func afterCompletion(_ work: @escaping @Sendable () -> Void) {
        if EngineThread.isCurrent { EngineThread.afterPass(work) } else { configuration.completionQueue.async(execute: work) }
    }

    /// Runs `work` now, or on the completion queue when called on the engine thread (by a handler
    /// that runs there): for what may wait for the engine, or take long.
    package func offEngineThread(_ work: @escaping @Sendable () -> Void) {
        if EngineThread.isCurrent { configuration.completionQueue.async(execute: work) } else { work() }
    }

    // MARK: Lifecycle commands (called by HTTPTask)

    func resume(_ task: HTTPTask) throws(IllegalTransition) {
        var accepted = true
        try task.transition(to: .running) { before in
            if before.submitted {
                accepted = engine.enqueue(.resume(task.id))
            } else if let delegate = registry.peek(task.id) {
                accepted = engine.enqueue(.start(task.id, delegate.request))
            }
        }
        if !accepted { finishUnsent(task) } // the manager was invalidated
    }

    func suspend(_ task: HTTPTask) throws(IllegalTransition) {
        try task.transition(to: .suspended) { _ in engine.enqueue(.suspend(task.id)) }
    }

    func continueStream(_ task: HTTPTask) {
        engine.enqueue(.continueStream(task.id))
    }

    func cancel(_ task: HTTPTask) throws(IllegalTransition) {
        var unsent = false
        try task.transition(to: .cancelled) { before in
            unsent = !before.submitted || !engine.enqueue(.cancel(task.id))
        }
        if unsent { finishUnsent(task) }
    }

    func failBeforeSending(_ task: HTTPTask, _ error: TransferError) throws(IllegalTransition) {
        try task.transitionUnsubmitted(to: .failed)
        finishUnsent(task, error: error)
    }

    /// Ends a task the engine never had (or can no longer take) as cancelled — or failed with
    /// `error` — handler, then event.
    private func finishUnsent(_ task: HTTPTask, error: TransferError? = nil) {
        if error == nil { _ = try? task.transition(to: .cancelled) }
        guard let delegate = registry.remove(task.id) else { return }
        let unsent = delegate.unsent(error: error)
        delegate.stream?.consumer.didFinish(unsent.error)
        let (handler, event) = delegate.respond(unsent)
        let bus = self.bus
        configuration.completionQueue.async {
            handler()
            bus.post(TaskEvent(task: task.id, kind: event))
        }
    }
}

/// A download's value: where its body was written.
private struct DestinationSerializer: ResponseSerializer {
    let destination: URL
    var name: String { "file" }
    var readsBody: Bool { false }
    func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> URL { destination }
}
