import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import XCTest

/// The test-support library's recorder and completion wait: woken by events, typed timeouts.
final class EventRecorderTests: XCTestCase {
    func testWaitReturnsAsSoonAsTheConditionHoldsAndEventsStayInOrder() throws {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .resumed))
            bus.post(TaskEvent(task: TaskID(rawValue: 2), kind: .resumed))
            bus.post(TaskEvent(task: TaskID(rawValue: 1), kind: .cancelled(nil)))
        }
        let start = Date()
        try recorder.waitForEnd(of: [TaskID(rawValue: 1)], timeout: 10)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "woken by the batch, not by the timeout")
        XCTAssertEqual(recorder.names(of: TaskID(rawValue: 1)), [.resumed, .cancelled])
        XCTAssertEqual(recorder.terminalEvent(of: TaskID(rawValue: 1))?.name, .cancelled)
        XCTAssertNil(recorder.terminalEvent(of: TaskID(rawValue: 2)))
    }

    func testWaitThatRunsOutOfTimeThrowsWhatItAwaitedAndTheLastEvents() throws {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus)
        bus.post(TaskEvent(task: TaskID(rawValue: 4), kind: .resumed))
        try recorder.wait { !$0.isEmpty }
        let start = Date()
        XCTAssertThrowsError(try recorder.waitForEnd(of: [TaskID(rawValue: 4)], timeout: 0.2)) { error in
            guard let timeout = error as? WaitTimedOut else { return XCTFail("\(error)") }
            XCTAssertEqual(timeout.lastEvents, ["4 resumed"])
            XCTAssertEqual(timeout.description, "timed out after 0.2 s waiting for the end of tasks [4]; last events: 4 resumed")
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.2)
    }

    func testAwaitCompletionReturnsTheHandlersValueOrThrows() throws {
        let value: Int = try awaitCompletion { done in DispatchQueue.global().async { done(7) } }
        XCTAssertEqual(value, 7)
        XCTAssertThrowsError(try awaitCompletion(timeout: 0.1) { (_: @escaping @Sendable (Int) -> Void) in }) { error in
            XCTAssertEqual((error as? WaitTimedOut)?.description, "timed out after 0.1 s waiting for the completion handler")
        }
    }
}
