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

/// Subscribes one `EventMonitor` to a bus on a queue of its own, and owns that subscription.
public final class EventMonitorHost: Sendable {
    private let bus: EventBus
    private let monitor: any EventMonitor
    /// The serial queue the monitor is called on (also for work that must be ordered with its events).
    public let queue: DispatchQueue
    private let gathering: DispatchTimeInterval?
    private let subscription = Protected<EventBus.Subscription?>(nil)

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
        subscription.withLock { subscription in
            guard subscription == nil else { return }
            subscription = bus.subscribeBatches(queue: queue, gathering: gathering) { events in monitor.receive(events) }
        }
    }

    /// Returns once every event posted so far has reached the monitor (and what was queued after it ran).
    public func flush() {
        subscription.withLock { $0 }?.flush()
        queue.sync {}
    }

    /// Delivers what was posted so far, stops delivering, and tells the monitor.
    public func stop() {
        flush()
        guard let stopped = subscription.withLock({ subscription -> EventBus.Subscription? in
            defer { subscription = nil }
            return subscription
        }) else { return }
        stopped.cancel()
        let monitor = self.monitor
        queue.sync { monitor.didStop() }
    }

    /// Runs `work` on the monitor's queue, ordered with its events.
    public func async(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}
