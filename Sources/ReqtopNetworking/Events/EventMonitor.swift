import Dispatch
import ReqtopSync

/// Something that watches a session's lifecycle (Alamofire's `EventMonitor`): a printer, a
/// recorder, a store, a bridge to `NotificationCenter`. It only says what to do with events;
/// an `EventMonitorHost` owns the subscription — start, flush, stop — so no monitor writes that
/// again.
public protocol EventMonitor: AnyObject, Sendable {
    /// The next events, in order, on the host's serial queue (a batch: everything pending).
    func receive(_ events: [TaskEvent])
    /// After the last batch, when the host stops (on the host's queue).
    func didStop()
}

extension EventMonitor {
    public func didStop() {}
}

/// What owns one monitor's subscription: starts it, waits for it, stops it, and runs work in order
/// with its events. `EventMonitorHost` calls the monitor on a queue of its own;
/// `PulledEventMonitorHost` on the thread that asks.
public protocol EventMonitorHosting: Sendable {
    /// Starts delivering the bus's events to the monitor (from now on; once).
    func start()
    /// Returns once every event posted so far has reached the monitor.
    func flush()
    /// Delivers what was posted so far, stops delivering, and tells the monitor.
    func stop()
    /// Runs `work` where the monitor is called, ordered with its events.
    func async(_ work: @escaping @Sendable () -> Void)
}

/// Subscribes one `EventMonitor` to a bus on a queue of its own, and owns that subscription.
public final class EventMonitorHost: EventMonitorHosting {
    private let bus: EventBus
    private let monitor: any EventMonitor
    /// The serial queue the monitor is called on (also for work that must be ordered with its events).
    public let queue: DispatchQueue
    private let gathering: DispatchTimeInterval?
    private let subscription = HostedSubscription()

    /// - Parameters:
    ///   - label: the queue's label.
    ///   - gathering: how long a batch may wait for more events (`EventBus.subscribeBatches`).
    public convenience init(bus: EventBus, monitor: any EventMonitor, label: String, gathering: DispatchTimeInterval? = nil) {
        self.init(bus: bus, monitor: monitor, queue: DispatchQueue(label: label), gathering: gathering)
    }

    /// A host that calls the monitor on `queue`, a serial queue the monitor also uses for its own work
    /// (a store that answers "is everything applied?" with `queue.sync {}`).
    public init(bus: EventBus, monitor: any EventMonitor, queue: DispatchQueue, gathering: DispatchTimeInterval? = nil) {
        self.bus = bus
        self.monitor = monitor
        self.queue = queue
        self.gathering = gathering
    }

    /// Starts delivering the bus's events to the monitor (from now on; once).
    public func start() {
        let monitor = self.monitor
        subscription.start { bus.subscribeBatches(queue: queue, gathering: gathering) { events in monitor.receive(events) } }
    }

    /// Returns once every event posted so far has reached the monitor (and what was queued after it ran).
    public func flush() {
        subscription.current?.flush()
        queue.sync {}
    }

    /// Delivers what was posted so far, stops delivering, and tells the monitor.
    public func stop() {
        flush()
        guard subscription.cancel() else { return }
        let monitor = self.monitor
        queue.sync { monitor.didStop() }
    }

    /// Runs `work` on the monitor's queue, ordered with its events.
    public func async(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}

/// Subscribes one `EventMonitor` to a bus and calls it on the thread that asks (`deliverPending()`),
/// not on a queue: for a thread that waits anyway — a headless run's main thread, between signals —
/// and can take the events itself. `wake` is called (on whichever thread posts or calls `async`; it
/// must only signal) when something waits for delivery while the host is idle. Call `start`,
/// `deliverPending`, `flush` and `stop` from that one thread.
public final class PulledEventMonitorHost: EventMonitorHosting {
    private let bus: EventBus
    private let monitor: any EventMonitor
    private let wake: @Sendable () -> Void
    private let subscription = HostedSubscription()
    /// Work handed over with `async`, run before the next events.
    private let work = Protected<[@Sendable () -> Void]>([])

    public init(bus: EventBus, monitor: any EventMonitor, wake: @escaping @Sendable () -> Void) {
        self.bus = bus
        self.monitor = monitor
        self.wake = wake
    }

    public func start() {
        let monitor = self.monitor
        subscription.start { bus.subscribeBatches(wake: wake) { events in monitor.receive(events) } }
    }

    /// Calls the monitor with everything pending (and runs the work handed over), on this thread.
    /// Returns false when there was nothing: the next event calls `wake` again.
    public func deliverPending() -> Bool {
        let jobs = work.withLock { work -> [@Sendable () -> Void] in
            defer { work = [] }
            return work
        }
        for job in jobs { job() }
        let delivered = subscription.current?.deliverPending() ?? false
        return delivered || !jobs.isEmpty
    }

    public func flush() {
        subscription.current?.flush()
        while deliverPending() {}
    }

    public func stop() {
        flush()
        guard subscription.cancel() else { return }
        while deliverPending() {} // work handed over meanwhile
        monitor.didStop()
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        self.work.withLock { $0.append(work) }
        wake()
    }
}

/// The one subscription a monitor host owns: made at the first `start`, cancelled at the first `cancel`.
private final class HostedSubscription: Sendable {
    private let subscription = Protected<EventBus.Subscription?>(nil)

    func start(_ subscribe: () -> EventBus.Subscription) {
        subscription.withLock { subscription in
            if subscription == nil { subscription = subscribe() }
        }
    }

    var current: EventBus.Subscription? { subscription.withLock { $0 } }

    /// Cancels the subscription; false when there was none (not started, or stopped already).
    func cancel() -> Bool {
        guard let stopped = subscription.withLock({ subscription -> EventBus.Subscription? in
            defer { subscription = nil }
            return subscription
        }) else { return false }
        stopped.cancel()
        return true
    }
}
