import Dispatch
import ReqtopNetworking
import ReqtopSync

/// Headless `--events jsonl`: every bus event as exactly `JSONLinesEncoder.line(for:)`, one per
/// line, written (unbuffered) to `sink` batch by batch.
package final class JSONLinesPrinter: Sendable {
    private let bus: EventBus
    private let sink: any OutputSink
    private let queue = DispatchQueue(label: "reqtop.headless.jsonl")
    private let subscription = Protected<EventBus.Subscription?>(nil)

    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardOutput) {
        self.bus = bus
        self.sink = sink
    }

    /// Starts printing the bus's events.
    package func start() {
        let sink = self.sink
        let sub = bus.subscribeBatches(queue: queue, gathering: headlessGathering) { events in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(events.count * 400)
            for event in events {
                JSONLinesEncoder.append(event, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            sink.write(String(decoding: bytes, as: UTF8.self)) // one write(2) per batch
        }
        subscription.withLock { $0 = sub }
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
}

/// How long a headless printer lets events gather before it writes them: lines still come out
/// within milliseconds, and a run of one request at a time wakes the printer per batch, not per event.
let headlessGathering = DispatchTimeInterval.milliseconds(2)
