import Dispatch
import ReqtopNetworking
import ReqtopSync

/// Headless `--events jsonl`: every bus event as exactly `JSONLinesEncoder.line(for:)`, one per
/// line, written (unbuffered) to `sink` batch by batch.
package final class JSONLinesPrinter: Sendable {
    private let host: HeadlessPrinterHost

    /// - Parameter wake: nil: the lines are written on a queue of the printer's own, a few milliseconds
    ///   after their events; else the caller's thread writes them (`deliverPending()`), woken by `wake`.
    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardOutput, secrets: SecretPolicy,
                 wake: (@Sendable () -> Void)? = nil) {
        host = HeadlessPrinterHost(bus: bus, monitor: Writer(sink: sink, secrets: secrets), label: "reqtop.headless.jsonl", wake: wake)
    }

    /// Starts printing the bus's events.
    package func start() { host.start() }

    /// With `wake`: writes what is pending, on this thread; false when nothing was.
    package func deliverPending() -> Bool { host.deliverPending() }

    /// Waits until every event posted so far has been printed.
    package func flush() { host.flush() }

    /// Prints every event posted so far, then stops.
    package func stop() { host.stop() }

    /// Each batch as JSON Lines, in one write(2).
    private final class Writer: EventMonitor {
        let sink: any OutputSink
        let secrets: SecretPolicy
        /// The batch's lines, in one buffer kept from batch to batch: a new one per batch was a fresh
        /// allocation as large as the batch (over 100 KB at --concurrency 64: mapped, page-faulted page
        /// by page and unmapped again each time — 12,000 page faults in a 100,000-request run), and a
        /// buffer per line was an allocation and a copy for each of the five or six lines of a request.
        private let buffer = Protected(JSONLinesBuffer())

        init(sink: any OutputSink, secrets: SecretPolicy) {
            self.sink = sink
            self.secrets = secrets
        }

        func receive(_ events: [TaskEvent]) {
            let redaction = secrets.redaction
            buffer.withLock { lines in
                for event in events { lines.append(event, redaction: redaction) }
                lines.withBytes { sink.write(utf8: $0) } // the encoder's bytes are UTF-8: no String made of them
                lines.removeAll()
            }
        }
    }
}

/// How long a headless printer lets events gather before it writes them: lines still come out
/// within milliseconds, and a run of one request at a time wakes the printer per batch, not per event.
package let headlessGatheringMilliseconds = 2

/// A headless printer's monitor, called on a queue of its own or, given `wake`, on the caller's thread.
struct HeadlessPrinterHost: Sendable {
    private let queued: EventMonitorHost?
    private let pulled: PulledEventMonitorHost?

    init(bus: EventBus, monitor: any EventMonitor, label: String, wake: (@Sendable () -> Void)?) {
        if let wake {
            queued = nil
            pulled = PulledEventMonitorHost(bus: bus, monitor: monitor, wake: wake)
        } else {
            queued = EventMonitorHost(bus: bus, monitor: monitor, queue: DispatchQueue(label: label, qos: .utility),
                                      gathering: .milliseconds(headlessGatheringMilliseconds))
            pulled = nil
        }
    }

    private var host: any EventMonitorHosting { queued ?? pulled! }

    func start() { host.start() }
    func flush() { host.flush() }
    func stop() { host.stop() }
    func async(_ work: @escaping @Sendable () -> Void) { host.async(work) }
    func deliverPending() -> Bool { pulled?.deliverPending() ?? false }
}
