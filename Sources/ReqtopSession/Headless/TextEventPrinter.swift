import Dispatch
import ReqtopNetworking
import ReqtopSync

/// Headless text mode: prints one readable line per lifecycle event (see `TextEventFormatter`)
/// to `sink`, keeping the live status line (if any) below the printed lines.
package final class TextEventPrinter: Sendable {
    private let bus: EventBus
    private let sink: any OutputSink
    private let statusLine: LiveStatusLine?
    private let formatter: Protected<TextEventFormatter>
    private let queue = DispatchQueue(label: "reqtop.headless.text")
    private let subscription = Protected<EventBus.Subscription?>(nil)

    /// - Parameters:
    ///   - progressInterval: minimum seconds between two progress lines of one task.
    ///   - statusLine: redrawn after each batch of lines, when stderr is a terminal.
    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardOutput,
                progressInterval: Double = 0.25, statusLine: LiveStatusLine? = nil) {
        self.bus = bus
        self.sink = sink
        self.statusLine = statusLine
        formatter = Protected(TextEventFormatter(progressInterval: progressInterval))
    }

    /// Starts printing the bus's events.
    package func start() {
        let sub = bus.subscribeBatches(queue: queue, gathering: headlessGathering) { [self] events in self.print(events) }
        subscription.withLock { $0 = sub }
    }

    /// Prints a line for a request the runner did not send.
    package func printNotSent(_ result: RunResult) {
        queue.async { [self] in self.emit(TextEventFormatter.line(forNotSent: result) + "\n") }
    }

    /// Waits until every event posted so far has been printed.
    package func flush() {
        subscription.withLock({ $0 })?.flush()
        queue.sync {}
    }

    /// Prints every event posted so far, then stops.
    package func stop() {
        flush()
        subscription.withLock({ $0 })?.cancel()
    }

    private func print(_ events: [TaskEvent]) {
        let text = formatter.withLock { formatter in
            events.compactMap { formatter.line(for: $0) }.map { $0 + "\n" }.joined()
        }
        if !text.isEmpty { emit(text) }
    }

    private func emit(_ text: String) {
        if let statusLine { statusLine.printAbove(text, to: sink) } else { sink.write(text) }
    }
}
