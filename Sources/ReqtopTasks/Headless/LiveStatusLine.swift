import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopSync

/// A one-line live summary (`running 3 · done 10 · failed 1 · 1.2 MB`) redrawn in place on a
/// terminal, at most `interval` apart. Use it only when stderr is a terminal.
package final class LiveStatusLine: Sendable {
    private struct Counts {
        var running: Set<TaskID> = []
        var completed = 0
        var failed = 0
        var cancelled = 0
        var bytesByTask: [TaskID: Int64] = [:]
        var finishedBytes: Int64 = 0
        var lastDraw: Double = 0
        var shown = false
        var lastText = ""
        var total: Int?
    }

    private let bus: EventBus
    private let sink: any OutputSink
    private let interval: Double
    private let counts = Protected(Counts())
    private let queue = DispatchQueue(label: "reqtop.headless.status")
    private let subscription = Protected<EventBus.Subscription?>(nil)

    /// - Parameter total: the number of requests planned, shown as `done/total` when given.
    package init(bus: EventBus, sink: any OutputSink = FileDescriptorSink.standardError, total: Int? = nil,
                interval: Double = 0.1) {
        self.bus = bus
        self.sink = sink
        self.interval = interval
        counts.withLock { $0.total = total }
    }

    package func start() {
        let sub = bus.subscribeBatches(queue: queue) { [self] events in self.update(events) }
        subscription.withLock { $0 = sub }
    }

    /// Writes `text` to `output` with the status line cleared first and redrawn after.
    package func printAbove(_ text: String, to output: any OutputSink) {
        counts.withLock { counts in
            if counts.shown { sink.write("\r\u{1B}[K") }
            output.write(text)
            counts.lastText = render(counts)
            sink.write(counts.lastText)
            counts.shown = true
        }
    }

    /// Stops and erases the line.
    package func finish() {
        queue.sync {}
        subscription.withLock({ $0 })?.cancel()
        counts.withLock { counts in
            if counts.shown { sink.write("\r\u{1B}[K") }
            counts.shown = false
        }
    }

    private func update(_ events: [TaskEvent]) {
        counts.withLock { counts in
            for event in events {
                switch event.kind {
                case .resumed: counts.running.insert(event.task)
                case .suspended: counts.running.remove(event.task)
                case .progress(let progress) where progress.direction == .download:
                    counts.bytesByTask[event.task] = progress.completed
                case .completed(let completion):
                    counts.completed += 1
                    finish(event.task, bytes: completion.bytes, in: &counts)
                case .failed(let failure):
                    counts.failed += 1
                    finish(event.task, bytes: failure.bytes, in: &counts)
                case .cancelled:
                    counts.cancelled += 1
                    finish(event.task, bytes: counts.bytesByTask[event.task] ?? 0, in: &counts)
                default: break
                }
            }
            let now = Date().timeIntervalSince1970
            let text = render(counts)
            guard now - counts.lastDraw >= interval, text != counts.lastText || !counts.shown else { return }
            counts.lastDraw = now
            counts.lastText = text
            sink.write((counts.shown ? "\r\u{1B}[K" : "") + text)
            counts.shown = true
        }
    }

    private func finish(_ task: TaskID, bytes: Int64, in counts: inout Counts) {
        counts.running.remove(task)
        counts.bytesByTask[task] = nil
        counts.finishedBytes += bytes
    }

    private func render(_ counts: Counts) -> String {
        let done = counts.completed + counts.failed + counts.cancelled
        let bytes = counts.finishedBytes + counts.bytesByTask.values.reduce(0, +)
        let doneText = counts.total.map { "done \(done)/\($0)" } ?? "done \(done)"
        return "running \(counts.running.count) · \(doneText) · failed \(counts.failed) · cancelled \(counts.cancelled) · "
            + ByteCount.format(bytes)
    }
}
