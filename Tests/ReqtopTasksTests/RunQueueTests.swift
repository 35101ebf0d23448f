@testable import ReqtopTasks
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

    func testTakingTheFirstIfReadyPassesNothingOver() {
        var queue = RunQueue(specCounts: [3], rounds: 1)
        XCTAssertNil(queue.takeFirstIfReady { $0.spec != 0 }, "the first is not ready: nothing is taken")
        XCTAssertEqual(Array(queue), [item(0, 0, 0), item(0, 0, 1), item(0, 0, 2)])
        XCTAssertEqual(queue.takeFirst { $0.spec == 1 }, item(0, 0, 1))
        XCTAssertNil(queue.takeFirstIfReady { $0.spec != 0 }, "a passed-over item is still first")
        XCTAssertEqual(queue.takeFirstIfReady { _ in true }, item(0, 0, 0))
        XCTAssertEqual(queue.takeFirstIfReady { _ in true }, item(0, 0, 2))
        XCTAssertNil(queue.takeFirstIfReady { _ in true })
    }

    func testBeyondTheConcurrencyOnlyTheNextRequestInOrderIsTakenUpToTheLookahead() {
        var state = RunnerState(queue: RunQueue(specCounts: [5], rounds: 1), outstanding: [])
        var blocked: Set<Int> = [2]
        let ready: (RunItem, Set<SpecKey>) -> Bool = { item, _ in !blocked.contains(item.spec) }
        XCTAssertEqual(state.takeNextReady(limit: 1, lookahead: 2, isReady: ready), item(0, 0, 0))
        XCTAssertEqual(state.takeNextReady(limit: 1, lookahead: 2, isReady: ready), item(0, 0, 1), "ahead of its turn")
        XCTAssertNil(state.takeNextReady(limit: 1, lookahead: 2, isReady: ready), "the next waits for a response: nothing passes it")
        blocked = []
        XCTAssertEqual(state.takeNextReady(limit: 1, lookahead: 2, isReady: ready), item(0, 0, 2))
        XCTAssertNil(state.takeNextReady(limit: 1, lookahead: 2, isReady: ready), "one running and two ahead")
        XCTAssertEqual(state.inFlightCount, 3)
    }

    func testRemoveAllEmptiesWaitingAndPlan() {
        var queue = RunQueue(specCounts: [3], rounds: 2)
        _ = queue.takeFirst { $0.spec == 1 }
        queue.removeAll()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(Array(queue), [])
    }
}
