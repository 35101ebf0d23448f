import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ReqtopNetworking
import ReqtopNetworkingFoundation
import ReqtopNetworkingTesting
import ReqtopSync
import ReqtopTestServer
import XCTest

final class EventBusTests: XCTestCase {
    private static func progress(_ task: Int, _ completed: Int64) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: task), kind: .progress(TransferProgress(direction: .download, completed: completed, total: 100)))
    }

    func testSlowObserverGetsProgressCoalescedButEveryLifecycleEvent() {
        let bus = EventBus()
        let received = Protected([TaskEvent]())
        // A stalled observer: its queue runs nothing until everything has been posted.
        let queue = DispatchQueue(label: "stalled-observer")
        queue.suspend()
        let subscription = bus.subscribe(queue: queue) { event in received.withLock { $0.append(event) } }
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        for i in 1...10_000 { bus.post(Self.progress(1, Int64(i))) }
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .suspended))
        for i in 1...10_000 { bus.post(Self.progress(1, Int64(10_000 + i))) }
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .cancelled(nil)))
        queue.resume()
        subscription.flush()
        let names = received.snapshot.map(\.name)
        XCTAssertEqual(names, [.resumed, .progress, .suspended, .progress, .cancelled])
        let values = received.snapshot.compactMap { event -> Int64? in
            if case .progress(let p) = event.kind { return p.completed }
            return nil
        }
        XCTAssertEqual(values, [10_000, 20_000], "latest progress wins, never reordered across lifecycle events")
    }

    /// Coalescing keeps one progress event per task and direction, in the place of the first one;
    /// a lifecycle event ends only its own task's run.
    func testProgressCoalescesPerTaskAndDirection() {
        let bus = EventBus()
        let received = Protected([String]())
        let queue = DispatchQueue(label: "stalled-observer")
        queue.suspend()
        let subscription = bus.subscribe(queue: queue) { event in
            let text: String = switch event.kind {
            case .progress(let p): "\(event.task.rawValue) \(p.direction == .upload ? "up" : "down") \(p.completed)"
            default: "\(event.task.rawValue) \(event.name.rawValue)"
            }
            received.withLock { $0.append(text) }
        }
        func progress(_ task: Int, _ direction: TransferProgress.Direction, _ completed: Int64) {
            bus.post(TaskEvent(task: TaskID(rawValue: task), kind: .progress(TransferProgress(direction: direction, completed: completed, total: 100))))
        }
        progress(1, .upload, 1)
        progress(2, .download, 1)
        progress(1, .download, 1)
        progress(1, .upload, 2)
        bus.post(TaskEvent(task: TaskID(rawValue: 2), kind: .resumed))
        progress(2, .download, 2)
        progress(1, .download, 2)
        progress(2, .download, 3)
        queue.resume()
        subscription.flush()
        XCTAssertEqual(received.snapshot, ["1 up 2", "2 down 1", "1 down 2", "2 resumed", "2 down 3"])
    }

    /// A gathering subscription delivers posts made close together as one batch, and `flush()` does
    /// not wait out the gathering time: it delivers what is pending at once.
    func testGatheringBatchesCloseEventsAndFlushDeliversAtOnce() {
        let bus = EventBus()
        let batches = Protected([[TaskEvent.Name]]())
        let subscription = bus.subscribeBatches(gathering: .seconds(30)) { events in batches.withLock { $0.append(events.map(\.name)) } }
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .suspended))
        bus.post(TaskEvent(task: TaskID(rawValue: 2), kind: .resumed))
        let started = Date()
        subscription.flush()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "flush must not wait for the 30 s gathering time")
        XCTAssertEqual(batches.snapshot, [[.resumed, .suspended, .resumed]])
        subscription.cancel()
    }

    /// A pulled subscription: the first event wakes the subscriber once; later posts wake nobody until a
    /// delivery finds nothing; deliveries run on the caller's thread, in order, and progress still coalesces.
    func testPulledSubscriptionWakesOncePerIdleSpellAndDeliversOnTheCallersThread() {
        let bus = EventBus()
        let wakes = Protected(0)
        let batches = Protected([[String]]())
        let subscription = bus.subscribeBatches(wake: { wakes.withLock { $0 += 1 } }) { events in
            XCTAssertTrue(Thread.isMainThread, "delivered on the thread that asked")
            batches.withLock { $0.append(events.map(\.name.rawValue)) }
        }
        XCTAssertFalse(subscription.deliverPending(), "nothing posted yet")
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        bus.post(Self.progress(1, 10))
        bus.post(Self.progress(1, 20))
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .suspended))
        XCTAssertEqual(wakes.snapshot, 1, "one wake for the events that gathered")
        XCTAssertEqual(batches.snapshot, [], "nothing delivered before the subscriber asks")
        XCTAssertTrue(subscription.deliverPending())
        XCTAssertEqual(batches.snapshot, [["resumed", "progress", "suspended"]])
        bus.post(TaskEvent(task: TaskID(rawValue: 2), kind: .resumed))
        XCTAssertEqual(wakes.snapshot, 1, "the subscriber is still delivering: no second wake")
        XCTAssertTrue(subscription.deliverPending())
        XCTAssertFalse(subscription.deliverPending(), "nothing left: the subscriber goes idle")
        bus.post(TaskEvent(task: TaskID(rawValue: 3), kind: .resumed))
        XCTAssertEqual(wakes.snapshot, 2, "an event after an idle delivery wakes it again")
        subscription.cancel()
        XCTAssertFalse(subscription.deliverPending(), "a cancelled subscription delivers nothing")
        XCTAssertEqual(batches.snapshot, [["resumed", "progress", "suspended"], ["resumed"]])
    }

    /// A pulled monitor host runs work handed to it before the next events, and `stop()` delivers what
    /// is pending, then tells the monitor — all on the calling thread.
    func testPulledMonitorHostDeliversWorkAndEventsOnStop() {
        final class Monitor: EventMonitor {
            let seen = Protected([String]())
            func receive(_ events: [TaskEvent]) { seen.withLock { $0 += events.map(\.name.rawValue) } }
            func didStop() { seen.withLock { $0.append("stopped") } }
        }
        let bus = EventBus()
        let monitor = Monitor()
        let wakes = Protected(0)
        let host = PulledEventMonitorHost(bus: bus, monitor: monitor, wake: { wakes.withLock { $0 += 1 } })
        host.start()
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        host.async { monitor.seen.withLock { $0.append("work") } }
        XCTAssertEqual(wakes.snapshot, 2, "the first event and the work each wake the host")
        XCTAssertTrue(host.deliverPending())
        XCTAssertEqual(monitor.seen.snapshot, ["work", "resumed"])
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .suspended))
        host.stop()
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        XCTAssertFalse(host.deliverPending(), "nothing is delivered after stop")
        XCTAssertEqual(monitor.seen.snapshot, ["work", "resumed", "suspended", "stopped"])
    }

    func testPostingNeverWaitsForABlockedObserver() {
        let bus = EventBus()
        let gate = DispatchSemaphore(value: 0)
        let blocked = bus.subscribe { _ in gate.wait() }
        defer { blocked.cancel() }
        let posted = DispatchSemaphore(value: 0)
        Thread { // on its own thread, so a blocking post fails the test instead of hanging it
            for i in 0..<50_000 { bus.post(Self.progress(i % 10, Int64(i))) }
            posted.signal()
        }.start()
        XCTAssertEqual(posted.wait(timeout: .now() + 10), .success, "posting must not block on the observer")
        gate.signal()
    }

    func testObserversSubscribeAndUnsubscribeConcurrentlyWhileEventsFlow() {
        let bus = EventBus()
        let stop = Protected(false)
        let posterDone = DispatchSemaphore(value: 0)
        let poster = Thread {
            var i = 0
            while !stop.snapshot || i < 1000 { // at least 1000 events, and on until told to stop
                bus.post(TaskEvent(task: TaskID(rawValue: i % 50), kind: i % 3 == 0 ? .resumed : .suspended))
                i += 1
            }
            posterDone.signal()
        }
        poster.start()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let subscription = bus.subscribe { _ in }
                subscription.cancel()
            }
        }
        stop.withLock { $0 = true }
        XCTAssertEqual(posterDone.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(bus.observerCount, 0)
    }

    func testASubscriptionEndsWhenReleasedAndFlushWaitsForDelivery() {
        let bus = EventBus()
        let count = Protected(0)
        var subscription: EventBus.Subscription? = bus.subscribeBatches { events in count.withLock { $0 += events.count } }
        for _ in 0..<10 { bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed)) }
        subscription?.flush()
        XCTAssertEqual(count.snapshot, 10, "flush returns once everything posted before it was handled")
        XCTAssertEqual(bus.observerCount, 1)
        subscription = nil
        XCTAssertEqual(bus.observerCount, 0, "releasing the subscription cancels it")
        bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
        XCTAssertEqual(count.snapshot, 10)
    }

    func testObserverMayUnsubscribeItselfWhileBeingCalled() {
        let bus = EventBus()
        let count = Protected(0)
        let subscription = Protected<EventBus.Subscription?>(nil)
        let queue = DispatchQueue(label: "self-unsubscribe")
        queue.suspend() // nothing is delivered before the subscription is stored
        let sub = bus.subscribe(queue: queue) { _ in
            count.withLock { $0 += 1 }
            subscription.snapshot?.cancel()
        }
        subscription.withLock { $0 = sub }
        for _ in 0..<100 { bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed)) }
        queue.resume()
        queue.sync {}
        XCTAssertEqual(count.snapshot, 1, "no delivery after unsubscribing, even within a batch")
        XCTAssertEqual(bus.observerCount, 0)
    }

    func testSlowObserverDoesNotSlowTransfers() throws {
        let server = try TestServer()
        server.start()
        defer { server.stop() }
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let gate = DispatchSemaphore(value: 0)
        let stalled = manager.bus.subscribe { _ in gate.wait() } // never returns until the end of the test
        defer {
            gate.signal()
            stalled.cancel()
        }
        let tasks = (0..<200).map { _ in manager.dataTask(with: HTTPRequest(server.url("/bytes/10240"))) }
        for task in tasks { try task.resume() }
        try recorder.waitForEnd(of: tasks.map(\.id))
        XCTAssertEqual(recorder.events.filter { $0.name == .completed }.count, 200)
    }

    func testAsyncStreamBridgeDeliversEvents() async throws {
        let bus = EventBus()
        let stream = bus.events()
        bus.post(TaskEvent(task: TaskID(rawValue: 7), kind: .resumed))
        bus.post(TaskEvent(task: TaskID(rawValue: 7), kind: .cancelled(nil)))
        var names: [TaskEvent.Name] = []
        for await event in stream {
            names.append(event.name)
            if event.isTerminal { break }
        }
        XCTAssertEqual(names, [.resumed, .cancelled])
    }

    func testNotificationBridgePostsNamedNotificationsWithUserInfo() throws {
        let server = try TestServer()
        server.start()
        defer { server.stop() }
        let manager = SessionManager()
        let center = NotificationCenter()
        let bridge = NotificationBridge(bus: manager.bus, center: center)
        defer { bridge.stop() }
        let complete = expectation(forNotification: NotificationBridge.name(for: .completed), object: nil, notificationCenter: center) { note in
            (note.userInfo?[NotificationBridge.UserInfoKey.bodySize] as? Int64) ?? 0 > 0
                && note.userInfo?[NotificationBridge.UserInfoKey.response] is HTTPURLResponse
        }
        let resume = expectation(forNotification: Notification.Name("reqtop.task.resume"), object: nil, notificationCenter: center)
        try manager.dataTask(with: HTTPRequest(server.url("/get"))).resume()
        wait(for: [resume, complete], timeout: 20)
    }

    func testJSONLinesFollowTheSchema() throws {
        let head = HTTPResponseHead(url: HTTPURL(string: "http://h/x")!, httpVersion: "1.1", status: 200, reason: "OK",
                                    headers: [HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2")])
        let events: [TaskEvent] = [
            TaskEvent(task: TaskID(rawValue: 3), time: 1.5, kind: .created(TaskDescription(kind: .data, name: "login", request: HTTPRequest(url: HTTPURL(string: "http://h/x")!)))),
            TaskEvent(task: TaskID(rawValue: 3), time: 2, kind: .response(head)),
            TaskEvent(task: TaskID(rawValue: 3), time: 2, kind: .progress(TransferProgress(direction: .download, completed: 5, total: -1))),
            TaskEvent(task: TaskID(rawValue: 3), time: 3, kind: .failed(TaskFailure(error: TransferError(code: .timedOut, message: "slow"), response: nil, bytes: 0, timings: nil, redirects: []))),
        ]
        let objects = try events.map { event -> [String: Any] in
            let line = JSONLinesEncoder.line(for: event, redaction: SecretPolicy().redaction)
            XCTAssertFalse(line.contains("\n"))
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        XCTAssertEqual(objects[0]["event"] as? String, "created")
        XCTAssertEqual(objects[0]["task"] as? Int, 3)
        XCTAssertEqual(objects[0]["time"] as? Double, 1.5)
        XCTAssertEqual(objects[0]["name"] as? String, "login")
        XCTAssertEqual(objects[0]["method"] as? String, "GET")
        XCTAssertEqual(objects[1]["headers"] as? [[String]], [["Set-Cookie", "a=[redacted]"], ["Set-Cookie", "b=[redacted]"]],
                       "repeated headers stay separate, in order")
        XCTAssertEqual(objects[2]["direction"] as? String, "download")
        XCTAssertEqual(objects[2]["total"] as? Int, -1)
        XCTAssertEqual((objects[3]["error"] as? [String: String])?["code"], "timedOut")
    }
}
