import Foundation
import ReqtopNetworking
import ReqtopSync

/// Events per second through `EventBus`: posted from one thread in batches of 64 (as the engine does, one batch
/// per loop pass) until every observer has every lifecycle event. Progress may be coalesced for any observer that
/// lags (the bus's design), so observers count lifecycle events; the figure is events posted per second.
struct BusBench {
    let settings: BenchSettings
    static let batchSize = 64

    func run() -> [BenchRow] {
        var rows: [BenchRow] = []
        for (observers, slow) in [(1, false), (8, true)] {
            var rates: [Double] = [], delivered: [Double] = []
            _ = once(observers: observers, slow: slow, events: min(60_000, settings.busEvents))
            for _ in 0..<settings.busRuns {
                let (rate, slowShare) = once(observers: observers, slow: slow, events: settings.busEvents)
                rates.append(rate)
                delivered.append(slowShare)
            }
            let rate = Stats.median(rates)
            let label = slow ? "\(observers) observers, one slow (1 ms per batch)" : "\(observers) observer"
            log("bus → \(label): \(Figure.rate(rate, unit: "events/s"))")
            rows.append(BenchRow("bus: events/s to \(label)", reqtop: Figure.spread(Spread(rates)) { Figure.rate($0, unit: "events/s") },
                                 values: ["events_per_s": rate, "events": Double(settings.busEvents),
                                          "slow_observer_progress_delivered_share": slow ? Stats.median(delivered) : 1]))
        }
        return rows
    }

    /// One run; returns events/s and the share of progress events the slow observer received.
    private func once(observers: Int, slow: Bool, events total: Int) -> (Double, Double) {
        let tasks = total / 6
        let total = tasks * 6
        let lifecycleTotal = tasks * 3
        let bus = EventBus()
        let done = DispatchSemaphore(value: 0)
        var subscriptions: [EventBus.Subscription] = []
        let fast = slow ? observers - 1 : observers
        for i in 0..<fast {
            let count = Protected(0)
            subscriptions.append(bus.subscribe(queue: DispatchQueue(label: "bench.bus.fast\(i)")) { event in
                guard event.name != .progress else { return }
                if count.withLock({ c -> Bool in c += 1; return c == lifecycleTotal }) { done.signal() }
            })
        }
        let slowTally = Protected((lifecycle: 0, progress: 0))
        if slow {
            subscriptions.append(bus.subscribeBatches(queue: DispatchQueue(label: "bench.bus.slow")) { batch in
                usleep(1000)
                let progress = batch.filter { $0.name == .progress }.count
                let reached = slowTally.withLock { t -> Bool in
                    t.progress += progress
                    t.lifecycle += batch.count - progress
                    return t.lifecycle == lifecycleTotal
                }
                if reached { done.signal() }
            })
        }
        let head = SyntheticEvents.head(1)
        let completed = SyntheticEvents.completed(1, at: 0)
        let start = Clock.now()
        var batch: [TaskEvent] = []
        batch.reserveCapacity(Self.batchSize)
        for task in 1...max(1, tasks) {
            let id = TaskID(rawValue: task)
            batch.append(TaskEvent(task: id, time: 0, kind: .resumed))
            batch.append(TaskEvent(task: id, time: 0, kind: .response(head)))
            for part in 1...3 {
                batch.append(TaskEvent(task: id, time: 0, kind: .progress(TransferProgress(direction: .download, completed: Int64(part * 30), total: 90))))
            }
            var end = completed
            end.task = id
            batch.append(end)
            if batch.count >= Self.batchSize {
                bus.post(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        bus.post(batch)
        for _ in 0..<observers { done.wait() }
        let elapsed = Clock.now() - start
        subscriptions.forEach { $0.cancel() }
        let share = slow ? Double(slowTally.withLock { $0.progress }) / Double(tasks * 3) : 1
        return (Double(total) / elapsed, share)
    }
}
