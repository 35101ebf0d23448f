import Foundation
import ReqtopNetworking
import ReqtopSync

/// Records every event an ``EventBus`` delivers, and lets a test wait for a condition on them.
///
/// Waiting sleeps on a signal raised by each delivered batch (never a fixed sleep or a polling loop).
/// A wait that runs out of time throws ``WaitTimedOut``, which names what was awaited and the last
/// events seen; in XCTest, a throwing test function reports it as the test's failure.
///
/// ```swift
/// let recorder = EventRecorder(bus: manager.bus)
/// try task.resume()
/// try recorder.waitForEnd(of: [task.id])
/// XCTAssertEqual(recorder.terminalEvent(of: task.id)?.name, .completed)
/// ```
public final class EventRecorder: Sendable {
    private let recording = Recorded()
    private var recorded: Protected<[TaskEvent]> { recording.recorded }
    private var arrived: NSCondition { recording.arrived }
    private let host: EventMonitorHost

    /// Subscribes to `bus` at once; the subscription ends when the recorder is released.
    public init(bus: EventBus) {
        host = EventMonitorHost(bus: bus, monitor: recording, label: "reqtop.recorder")
        host.start()
    }

    /// The events, kept as they arrive.
    private final class Recorded: EventMonitor, @unchecked Sendable { // NSCondition is thread-safe; Protected guards the list
        let recorded = Protected([TaskEvent]())
        /// Raised after each delivered batch; a waiter holds it while it decides to sleep, so no batch is missed.
        let arrived = NSCondition()

        func receive(_ events: [TaskEvent]) {
            recorded.withLock { $0.append(contentsOf: events) }
            arrived.lock()
            arrived.broadcast()
            arrived.unlock()
        }
    }

    /// Returns once every event posted to the bus so far has been recorded.
    public func flush() { host.flush() }

    /// Every event recorded so far, in delivery order.
    public var events: [TaskEvent] { recorded.snapshot }

    /// The recorded events of one task, in delivery order.
    public func events(of task: TaskID) -> [TaskEvent] { events.filter { $0.task == task } }

    /// The names of one task's recorded events, in delivery order.
    public func names(of task: TaskID) -> [TaskEvent.Name] { events(of: task).map(\.name) }

    /// The task's terminal event (completed, failed or cancelled), if it has been recorded.
    public func terminalEvent(of task: TaskID) -> TaskEvent? { events(of: task).last { $0.isTerminal } }

    /// Returns as soon as `condition` holds for the recorded events; throws ``WaitTimedOut`` after `timeout` seconds.
    ///
    /// `condition` is called without any lock held, so it may read the recorder.
    public func wait(timeout: TimeInterval = 20, until condition: ([TaskEvent]) -> Bool) throws(WaitTimedOut) {
        try wait(for: "a condition on the events", timeout: timeout, until: condition)
    }

    /// Returns once the terminal event of each of `tasks` has been recorded; throws ``WaitTimedOut`` after `timeout` seconds.
    public func waitForEnd(of tasks: [TaskID], timeout: TimeInterval = 30) throws(WaitTimedOut) {
        let wanted = Set(tasks)
        try wait(for: "the end of tasks \(tasks.map(\.rawValue))", timeout: timeout) { events in
            Set(events.filter { $0.isTerminal && wanted.contains($0.task) }.map(\.task)).count == wanted.count
        }
    }

    private func wait(for what: String, timeout: TimeInterval, until condition: ([TaskEvent]) -> Bool) throws(WaitTimedOut) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let seen = events
            if condition(seen) { return }
            arrived.lock()
            // Sleep only if nothing arrived since `seen` was taken: a batch recorded later must take
            // `arrived` to broadcast, which it gets only once this thread sleeps.
            let signalled = recorded.withLock { $0.count } != seen.count || arrived.wait(until: deadline)
            arrived.unlock()
            if !signalled, Date() >= deadline {
                let last = events
                if condition(last) { return }
                throw WaitTimedOut(awaited: what, timeout: timeout,
                                   lastEvents: last.suffix(20).map { "\($0.task.rawValue) \($0.name)" })
            }
        }
    }
}

/// A wait that ran out of time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was awaited, e.g. `the end of tasks [3]`.
    public let awaited: String
    /// The time allowed, in seconds.
    public let timeout: TimeInterval
    /// Up to the last 20 recorded events as `task name`, oldest first (empty for a completion handler).
    public let lastEvents: [String]

    /// Creates the error for a wait on `awaited` that took longer than `timeout` seconds.
    public init(awaited: String, timeout: TimeInterval, lastEvents: [String] = []) {
        self.awaited = awaited
        self.timeout = timeout
        self.lastEvents = lastEvents
    }

    public var description: String {
        let tail = lastEvents.isEmpty ? "" : "; last events: \(lastEvents.joined(separator: ", "))"
        return "timed out after \(timeout) s waiting for \(awaited)\(tail)"
    }
}

/// Runs `body`, which starts work and hands the given handler to it as a completion handler, and
/// returns the value the handler is called with; throws ``WaitTimedOut`` if it is not called within `timeout` seconds.
///
/// ```swift
/// let response: TaskResponse<Data> = try awaitCompletion { done in
///     try? manager.dataTask(with: request, completionHandler: done).resume()
/// }
/// ```
public func awaitCompletion<T: Sendable>(timeout: TimeInterval = 30,
                                         _ body: (@escaping @Sendable (T) -> Void) -> Void) throws(WaitTimedOut) -> T {
    let result = Protected<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    body { value in
        result.withLock { $0 = value }
        done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success, let value = result.snapshot else {
        throw WaitTimedOut(awaited: "the completion handler", timeout: timeout)
    }
    return value
}
