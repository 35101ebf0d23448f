import Dispatch
import ReqtopNetworking
import ReqtopSync

/// Headless `--events jsonl`: every bus event as exactly `JSONLinesEncoder.line(for:)`, one per
/// line, written (unbuffered) to `sink` batch by batch.
package final class JSONLinesPrinter: Sendable {
    private let host: EventMonitorHost

    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardOutput, secrets: SecretPolicy) {
        host = EventMonitorHost(bus: bus, monitor: Writer(sink: sink, secrets: secrets),
                                queue: DispatchQueue(label: "reqtop.headless.jsonl", qos: .utility), gathering: headlessGathering)
    }

    /// Starts printing the bus's events.
    package func start() { host.start() }

    /// Waits until every event posted so far has been printed.
    package func flush() { host.flush() }

    /// Prints every event posted so far, then stops.
    package func stop() { host.stop() }

    /// Each batch as JSON Lines, in one write(2).
    private final class Writer: EventMonitor {
        let sink: any OutputSink
        let secrets: SecretPolicy
        /// The batch's bytes, in one buffer kept from batch to batch: a new one per batch was a fresh
        /// allocation as large as the batch (over 100 KB at --concurrency 64: mapped, page-faulted page
        /// by page and unmapped again each time — 12,000 page faults in a 100,000-request run).
        private let buffer = Protected([UInt8]())
        /// A buffer grown past this by an exceptional batch is not kept.
        private static let keptCapacity = 1 << 20

        init(sink: any OutputSink, secrets: SecretPolicy) {
            self.sink = sink
            self.secrets = secrets
        }

        func receive(_ events: [TaskEvent]) {
            let redaction = secrets.redaction
            buffer.withLock { bytes in
                bytes.removeAll(keepingCapacity: true)
                bytes.reserveCapacity(events.count * 400)
                for event in events {
                    JSONLinesEncoder.append(event, redaction: redaction, to: &bytes)
                    bytes.append(UInt8(ascii: "\n"))
                }
                bytes.withUnsafeBytes { sink.write(utf8: $0) } // the encoder's bytes are UTF-8: no String made of them
                if bytes.capacity > Self.keptCapacity { bytes = [] }
            }
        }
    }
}

/// How long a headless printer lets events gather before it writes them: lines still come out
/// within milliseconds, and a run of one request at a time wakes the printer per batch, not per event.
let headlessGathering = DispatchTimeInterval.milliseconds(2)
