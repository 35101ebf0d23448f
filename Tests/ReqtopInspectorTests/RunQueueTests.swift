@testable import ReqtopSession
import XCTest

/// The runner's queue walks its plan (every spec of every list, round after round) without holding it.
final class RunQueueTests: XCTestCase {
    private func item(_ list: Int, _ iteration: Int, _ spec: Int) -> RunItem { RunItem(list: list, iteration: iteration, spec: spec) }

    func testThePlanIsEveryListInOrderRoundAfterRoundSkippingEmptyLists() {
        let queue = RunQueue(specCounts: [2, 0, 1], rounds: 2)
        XCTAssertEqual(queue.count, 6)
        XCTAssertEqual(Array(queue), [item(0, 0, 0), item(0, 0, 1), item(2, 0, 0), item(0, 1, 0), item(0, 1, 1), item(2, 1, 0)])
        XCTAssertTrue(RunQueue(specCounts: [0, 0], rounds: 3).isEmpty)
        XCTAssertEqual(Array(RunQueue(specCounts: [], rounds: 1)), [])
    }

    func testItemsPassedOverWaitInOrderAndComeFirstOnceReady() {
        var queue = RunQueue(specCounts: [4], rounds: 1)
        var blocked: Set<Int> = [0, 1]
        XCTAssertEqual(queue.takeFirst { !blocked.contains($0.spec) }, item(0, 0, 2))
        XCTAssertEqual(queue.count, 3)
        XCTAssertEqual(Array(queue), [item(0, 0, 0), item(0, 0, 1), item(0, 0, 3)], "the passed-over items keep their place")
        blocked = [0]
        XCTAssertEqual(queue.takeFirst { !blocked.contains($0.spec) }, item(0, 0, 1))
        XCTAssertEqual(queue.takeFirst { _ in false }, nil)
        XCTAssertEqual(queue.count, 2)
        XCTAssertEqual(queue.takeFirst { _ in true }, item(0, 0, 0))
        XCTAssertEqual(queue.takeFirst { _ in true }, item(0, 0, 3))
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.takeFirst { _ in true })
    }

    func testRemoveAllEmptiesWaitingAndPlan() {
        var queue = RunQueue(specCounts: [3], rounds: 2)
        _ = queue.takeFirst { $0.spec == 1 }
        queue.removeAll()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(Array(queue), [])
    }
}
