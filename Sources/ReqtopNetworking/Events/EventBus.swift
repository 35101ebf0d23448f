import Dispatch
import ReqtopSync

/// The notification bus: every lifecycle step of every task is posted here, and any number of
/// observers receive them, each on its own queue with its own callback.
///
/// - Observers subscribe and unsubscribe from any thread; the list is locked and each post
///   works from a snapshot, so an observer may unsubscribe while it is being called.
/// - Posting never waits for an observer: events are appended to the observer's pending
///   queue and one drain is scheduled per observer (one thread hop per batch, not per event).
/// - A slow observer gets progress coalesced (the latest value per task and direction wins);
///   lifecycle events are never dropped.
public final class EventBus: Sendable {
    /// One observer's subscription. Delivery stops at `cancel()` or when the subscription is
    /// released, so keep it as long as the observer should hear events.
    public final class Subscription: Sendable {
        private let observer: Observer
        private let remove: @Sendable () -> Void
        /// Returns once no post is halfway through handing its events to the observers.
        private let postsDone: @Sendable () -> Void

        fileprivate init(observer: Observer, remove: @escaping @Sendable () -> Void, postsDone: @escaping @Sendable () -> Void) {
            self.observer = observer
            self.remove = remove
            self.postsDone = postsDone
        }

        deinit { cancel() }

        /// Stops delivery; events still pending for this observer are discarded. Safe from any
        /// thread, including from inside the observer's own handler. Later calls do nothing.
        public func cancel() {
            remove()
            observer.deactivate()
        }

        /// Returns once every event posted before the call has been handed to the observer's
        /// handler — also one whose post was still handing it to other observers (another observer
        /// may already have seen it). Do not call it on the observer's own queue.
        public func flush() {
            postsDone()
            observer.flush()
        }

        /// For a subscription made with `subscribeBatches(wake:_:)`: hands everything pending to the
        /// handler on the calling thread (the subscriber's own; one thread at a time). Returns false when
        /// nothing was pending: then the next event calls `wake` again.
        public func deliverPending() -> Bool {
            observer.deliverPending()
        }
    }

    private struct Registry {
        var nextID = 1
        var observers: [Int: Observer] = [:] {
            didSet { current = Array(observers.values) }
        }
        /// The observers as a list, made when one subscribes or leaves, not on every post.
        private(set) var current: [Observer] = []
    }

    private let registry = Protected(Registry())
    /// Batches observers are done with, released on a thread that posts — mostly the engine's, which
    /// allocates most of them (a headless run's main thread posts the `created` events of the requests
    /// it submits ahead) — when it is about to wait for the network (`releaseSpentEvents`), or by a post
    /// once many have gathered. Freed on an observer's thread, each event's memory went back to the
    /// engine thread's malloc arena under that arena's lock: at 30,000 requests/s the JSON Lines
    /// printer slept on it ~0.1 times per request.
    private let spent = SpentBatches()
    /// Held while a post hands its events to every observer, so `Subscription.flush()` can wait for
    /// a post that one observer has seen and this one not yet.
    private let posting = Lock()

    public init() {}

    /// Subscribes `handler` to every event, called on `queue` (serial) one event at a time, in order.
    public func subscribe(queue: DispatchQueue = DispatchQueue(label: "reqtop.bus.observer"),
                          _ handler: @escaping @Sendable (TaskEvent) -> Void) -> Subscription {
        add(Observer(queue: queue, perEvent: true, spent: spent) { handler($0[0]) })
    }

    /// Subscribes `handler` to batches of events (everything pending since the last call), on `queue`
    /// (serial). Cheaper than per-event delivery for an observer that redraws once per batch.
    /// - Parameter gathering: how long a batch may wait for more events after its first one (nil: not at
    ///   all). A few milliseconds turn many small deliveries — a thread woken per event when requests
    ///   are sent one at a time — into few larger ones, for an observer that need not see each event at once.
    public func subscribeBatches(queue: DispatchQueue = DispatchQueue(label: "reqtop.bus.observer"),
                                 gathering: DispatchTimeInterval? = nil,
                                 _ handler: @escaping @Sendable ([TaskEvent]) -> Void) -> Subscription {
        add(Observer(queue: queue, perEvent: false, gathering: gathering, spent: spent, handler: handler))
    }

    /// Subscribes `handler` to batches of events that the subscriber takes on a thread of its own
    /// (`Subscription.deliverPending()`), with no queue and no thread of the bus's: `wake` is called
    /// (on the posting thread: it must only signal, not wait) when events start waiting while the
    /// subscriber is idle — once, until a `deliverPending()` finds nothing. A thread that waits anyway
    /// (a headless run's main thread) prints the events itself, and the engine wakes nobody per batch.
    public func subscribeBatches(wake: @escaping @Sendable () -> Void, _ handler: @escaping @Sendable ([TaskEvent]) -> Void) -> Subscription {
        add(Observer(wake: wake, spent: spent, handler: handler))
    }

    private func add(_ observer: Observer) -> Subscription {
        let id = registry.withLock { registry in
            let id = registry.nextID
            registry.nextID += 1
            registry.observers[id] = observer
            return id
        }
        return Subscription(observer: observer, remove: { [weak self] in
            _ = self?.registry.withLock { $0.observers.removeValue(forKey: id) }
        }, postsDone: { [weak self] in self?.posting.withLock {} })
    }

    /// The number of current subscriptions.
    public var observerCount: Int { registry.withLock { $0.observers.count } }

    /// Posts events in order to every current observer.
    public func post(_ events: [TaskEvent]) {
        guard !events.isEmpty else { return }
        posting.withLock {
            let observers = registry.withLock { $0.current }
            for observer in observers { observer.enqueue(events) }
        }
        spent.release(ifMoreThan: 32)
    }

    /// Releases the event batches observers are done with, here (the engine thread calls it before
    /// it sleeps: the work falls in the wait for the network, not between a response and the next request).
    package func releaseSpentEvents() { spent.release(ifMoreThan: 0) }

    /// Posts one event.
    public func post(_ event: TaskEvent) { post([event]) }
}

/// One subscriber: its queue, its callback and the events waiting for it.
fileprivate final class Observer: Sendable {
    private struct Pending {
        var queue = CoalescingEventQueue()
        var drainScheduled = false
        var active = true
    }

    /// How a batch reaches the handler.
    private enum Delivery {
        /// A drain on this serial queue, after `gathering` (or at once).
        case queue(DispatchQueue, gathering: DispatchTimeInterval?)
        /// The subscriber's thread takes it (`deliverPending`), woken by this call.
        case caller(wake: @Sendable () -> Void)
    }

    private let delivery: Delivery
    private let spent: SpentBatches
    private let handler: @Sendable ([TaskEvent]) -> Void
    /// Per-event observers are called once per event and stop mid-batch when unsubscribed.
    private let perEvent: Bool
    private let pending = Protected(Pending())

    init(queue: DispatchQueue, perEvent: Bool, gathering: DispatchTimeInterval? = nil, spent: SpentBatches,
         handler: @escaping @Sendable ([TaskEvent]) -> Void) {
        delivery = .queue(queue, gathering: gathering)
        self.spent = spent
        self.perEvent = perEvent
        self.handler = handler
    }

    init(wake: @escaping @Sendable () -> Void, spent: SpentBatches, handler: @escaping @Sendable ([TaskEvent]) -> Void) {
        delivery = .caller(wake: wake)
        self.spent = spent
        perEvent = false
        self.handler = handler
    }

    private var isActive: Bool { pending.withLock { $0.active } }

    func deactivate() {
        pending.withLock { $0 = Pending(active: false) }
    }

    /// A drain scheduled before this call runs before it returns (the queue is serial).
    func flush() {
        switch delivery {
        case .queue(let queue, let gathering):
            dispatchPrecondition(condition: .notOnQueue(queue))
            // A gathering drain may still be waiting for its time: drain now (the late one finds nothing).
            queue.sync { if gathering != nil { drain() } }
        case .caller:
            drain() // on the subscriber's thread, the only one that delivers
        }
    }

    func enqueue(_ events: [TaskEvent]) {
        let schedule = pending.withLock { state -> Bool in
            guard state.active else { return false }
            for event in events { state.queue.append(event) }
            guard !state.drainScheduled else { return false }
            state.drainScheduled = true
            return true
        }
        guard schedule else { return }
        switch delivery {
        case .queue(let queue, let gathering?):
            queue.asyncAfter(deadline: .now() + gathering) { self.drain() }
        case .queue(let queue, nil):
            queue.async { self.drain() }
        case .caller(let wake):
            wake()
        }
    }

    /// Hands what is pending to the handler, once; false when nothing was (the next event schedules again).
    func deliverPending() -> Bool {
        let batch = pending.withLock { state -> [TaskEvent] in
            guard state.active, !state.queue.isEmpty else {
                state.drainScheduled = false
                return []
            }
            return state.queue.takeAll()
        }
        if batch.isEmpty { return false }
        if perEvent {
            for event in batch {
                guard isActive else {
                    spent.keep(batch)
                    return true
                }
                handler([event])
            }
        } else {
            handler(batch)
        }
        spent.keep(batch)
        return true
    }

    private func drain() {
        while deliverPending() {}
    }
}

/// Event batches waiting to be released (see `EventBus.spent`).
fileprivate final class SpentBatches: Sendable {
    private let batches = Protected<[[TaskEvent]]>([])

    func keep(_ batch: [TaskEvent]) {
        batches.withLock { $0.append(batch) }
    }

    /// Releases the kept batches on the calling thread (outside the lock) when there are more than `count`.
    func release(ifMoreThan count: Int) {
        var taken: [[TaskEvent]] = []
        batches.withLock { if $0.count > count { swap(&$0, &taken) } }
        withExtendedLifetime(taken) {} // the last reference: the events go here
    }
}
