import Dispatch
import ReqtopNetworking
import ReqtopSync

/// Headless text mode: prints one readable line per lifecycle event (see `TextEventFormatter`)
/// to `sink`, keeping the live status line (if any) below the printed lines.
package final class TextEventPrinter: Sendable {
    private let host: HeadlessPrinterHost
    private let lines: Lines

    /// - Parameters:
    ///   - progressInterval: minimum seconds between two progress lines of one task.
    ///   - statusLine: redrawn after each batch of lines, when stderr is a terminal.
    ///   - wake: nil: the lines are written on a queue of the printer's own, a few milliseconds after
    ///     their events; else the caller's thread writes them (`deliverPending()`), woken by `wake`.
    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardOutput,
                progressInterval: Double = 0.25, statusLine: LiveStatusLine? = nil, wake: (@Sendable () -> Void)? = nil) {
        lines = Lines(sink: sink, statusLine: statusLine, progressInterval: progressInterval)
        host = HeadlessPrinterHost(bus: bus, monitor: lines, label: "reqtop.headless.text", wake: wake)
    }

    /// Starts printing the bus's events.
    package func start() { host.start() }

    /// With `wake`: writes what is pending, on this thread; false when nothing was.
    package func deliverPending() -> Bool { host.deliverPending() }

    /// Prints a line for a request the runner did not send (in order with the events' lines).
    package func printNotSent(_ result: RunResult) {
        host.async { [lines] in lines.emit(TextEventFormatter.line(forNotSent: result) + "\n") }
    }

    /// Waits until every event posted so far has been printed.
    package func flush() { host.flush() }

    /// Prints every event posted so far, then stops.
    package func stop() { host.stop() }

    /// The lines, written on the host's queue.
    private final class Lines: EventMonitor {
        let sink: any OutputSink
        let statusLine: LiveStatusLine?
        let formatter: Protected<TextEventFormatter>

        init(sink: any OutputSink, statusLine: LiveStatusLine?, progressInterval: Double) {
            self.sink = sink
            self.statusLine = statusLine
            formatter = Protected(TextEventFormatter(progressInterval: progressInterval))
        }

        func receive(_ events: [TaskEvent]) {
            let text = formatter.withLock { formatter in
                var text = ""
                for event in events {
                    guard let line = formatter.line(for: event) else { continue }
                    text += line
                    text += "\n"
                }
                return text
            }
            if !text.isEmpty { emit(text) }
        }

        func emit(_ text: String) {
            if let statusLine { statusLine.printAbove(text, to: sink) } else { sink.write(text) }
        }
    }
}
