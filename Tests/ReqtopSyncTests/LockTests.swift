import Dispatch
import ReqtopSync
import XCTest

final class LockTests: XCTestCase {
    func testProtectedCounterIsExactUnderConcurrentIncrements() {
        let counter = Protected(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.snapshot, 80_000)
    }

    func testWithLockRethrowsAndReleases() {
        struct Boom: Error {}
        let lock = Lock()
        XCTAssertThrowsError(try lock.withLock { throw Boom() })
        // The lock was released by the throw: taking it again must not deadlock.
        XCTAssertEqual(lock.withLock { 42 }, 42)
    }
}
