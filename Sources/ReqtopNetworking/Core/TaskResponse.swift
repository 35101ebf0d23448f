import FoundationEssentials

/// Everything a finished task produced, handed to its completion handler.
public struct TaskResponse<Value: Sendable>: Sendable {
    public var task: TaskID
    /// The request as given to the manager.
    public var request: HTTPRequest
    /// The final response's status line and headers (nil if none arrived).
    public var head: HTTPResponseHead?
    /// The body in memory, or the file it went to.
    public var body: ResponseBody?
    /// Body bytes received.
    public var bytes: Int64
    public var redirects: [RedirectHop]
    /// Every request head exactly as sent, one per hop (the headers libcurl added included).
    public var sentHeads: [RequestHead]
    /// Phase timings of the final hop (each redirect hop has its own in `redirects`).
    public var timings: PhaseTimings?
    /// The serialized value, or why the transfer, validation or serialization failed.
    public var result: Result<Value, TransferError>

    public var value: Value? { try? result.get() }
    public var error: TransferError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
