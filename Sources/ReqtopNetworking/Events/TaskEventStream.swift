extension EventBus {
    /// The bus as an `AsyncStream`; the subscription ends when the stream's consumer stops.
    public func events() -> AsyncStream<TaskEvent> {
        AsyncStream { continuation in
            let subscription = subscribeBatches { events in
                for event in events { continuation.yield(event) }
            }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
