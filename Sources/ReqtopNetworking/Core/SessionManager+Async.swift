import FoundationEssentials
import ReqtopSync

extension SessionManager {
    /// Runs a data task and returns its response; cancelling the Swift task cancels the transfer.
    public func response<S: ResponseSerializer>(for request: HTTPRequest, serializer: S,
                                                options: TaskOptions = TaskOptions()) async -> TaskResponse<S.Value> {
        await run { done in dataTask(with: request, serializer: serializer, options: options, completionHandler: done) }
    }

    /// Runs a data task and returns the raw body.
    public func data(for request: HTTPRequest, options: TaskOptions = TaskOptions()) async -> TaskResponse<Data> {
        await response(for: request, serializer: RawResponseSerializer(), options: options)
    }

    /// Runs a download task into `destination`.
    public func download(for request: HTTPRequest, to destination: URL,
                         options: TaskOptions = TaskOptions()) async -> TaskResponse<URL> {
        await run { done in downloadTask(with: request, destination: destination, options: options, completionHandler: done) }
    }

    /// Runs an upload task that sends `data`.
    public func upload(for request: HTTPRequest, from data: Data, options: TaskOptions = TaskOptions()) async -> TaskResponse<Data> {
        await run { done in uploadTask(with: request, from: data, options: options, completionHandler: done) }
    }

    private func run<Value: Sendable>(
        _ make: (@escaping @Sendable (TaskResponse<Value>) -> Void) -> HTTPTask
    ) async -> TaskResponse<Value> {
        let rendezvous = Rendezvous<TaskResponse<Value>>()
        let task = make { rendezvous.deliver($0) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                rendezvous.wait(with: continuation)
                if task.state == .suspended { try? task.resume() }
            }
        } onCancel: {
            try? task.cancel()
        }
    }
}

/// Meets a result and a continuation in whichever order they arrive.
private final class Rendezvous<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case delivered(Value)
        case done
    }

    private let state = Protected(State.empty)

    func wait(with continuation: CheckedContinuation<Value, Never>) {
        let ready: Value? = state.withLock { state in
            if case .delivered(let value) = state {
                state = .done
                return value
            }
            state = .waiting(continuation)
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func deliver(_ value: Value) {
        let waiting: CheckedContinuation<Value, Never>? = state.withLock { state in
            if case .waiting(let continuation) = state {
                state = .done
                return continuation
            }
            state = .delivered(value)
            return nil
        }
        waiting?.resume(returning: value)
    }
}
