import Foundation
import ReqtopNetworking
import ReqtopSync

/// Posts task lifecycles on a bus at a steady rate from its own thread, as an engine would: each tick starts some
/// tasks, gives the previous tick's a response and progress, and completes the ones before. Remembers when each
/// completed event was posted, in order.
final class TUIFeeder: Sendable {
    private let bus: EventBus
    private let firstID: Int
    private let tasksPerTick: Int
    private let tick: Double
    private let stopFlag = Protected(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Post times (monotonic seconds) of completed events, in posting order.
    let completedPostTimes = Protected<[Double]>([])
    /// Events posted so far.
    let posted = Protected(0)

    init(bus: EventBus, firstID: Int, eventsPerSecond: Int) {
        self.bus = bus
        self.firstID = firstID
        tasksPerTick = max(1, Int((Double(eventsPerSecond) * 0.005 / 6).rounded()))
        tick = Double(tasksPerTick * 6) / Double(eventsPerSecond)
    }

    func start() {
        Thread.detachNewThread { [self] in
            run()
            finished.signal()
        }
    }

    func stop() {
        stopFlag.withLock { $0 = true }
        finished.wait()
    }

    private func run() {
        var next = Clock.now()
        var tickIndex = 0
        while !stopFlag.withLock({ $0 }) {
            let wall = Date().timeIntervalSince1970
            var events: [TaskEvent] = []
            events.reserveCapacity(tasksPerTick * 6)
            var completions = 0
            for slot in 0..<tasksPerTick {
                let started = firstID + tickIndex * tasksPerTick + slot
                events.append(SyntheticEvents.created(started, at: wall))
                events.append(SyntheticEvents.resumed(started, at: wall))
                events.append(SyntheticEvents.sent(started, at: wall))
                if tickIndex >= 1 {
                    let responding = started - tasksPerTick
                    events.append(SyntheticEvents.response(responding, at: wall))
                    events.append(SyntheticEvents.progress(responding, completed: Int64(SyntheticEvents.bodySize(responding) / 2), at: wall))
                }
                if tickIndex >= 2 {
                    let ending = started - 2 * tasksPerTick
                    events.append(SyntheticEvents.progress(ending, completed: Int64(SyntheticEvents.bodySize(ending)), at: wall))
                    events.append(SyntheticEvents.completed(ending, at: wall))
                    completions += 1
                }
            }
            let now = Clock.now()
            if completions > 0 { completedPostTimes.withLock { $0.append(contentsOf: repeatElement(now, count: completions)) } }
            bus.post(events)
            posted.withLock { $0 += events.count }
            tickIndex += 1
            next += tick
            let wait = next - Clock.now()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
        }
    }
}

/// Wakes the render loop when the store changed; marks made before the next frame coalesce.
final class DirtySignal: Sendable {
    private let flag = Protected(false)
    private let semaphore = DispatchSemaphore(value: 0)

    func mark() {
        if flag.withLock({ f -> Bool in defer { f = true }; return !f }) { semaphore.signal() }
    }

    /// Waits until marked or `timeout` seconds pass; true when marked. Clears the mark.
    func wait(timeout: Double) -> Bool {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return false }
        flag.withLock { $0 = false }
        return true
    }
}
