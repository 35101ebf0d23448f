import ReqtopHTTPModel
import XCTest

final class PhaseTimingsTests: XCTestCase {
    func testPhasesFromLibcurlMarks() {
        let t = PhaseTimings(nameLookup: 1_000, connect: 3_000, appConnect: 0, preTransfer: 3_500, startTransfer: 10_000,
                             total: 12_000, reusedConnection: false)
        XCTAssertEqual([t.dns, t.connect, t.tls, t.send, t.wait, t.receive, t.total], [1, 2, -1, 0.5, 6.5, 2, 12])
    }

    func testWithoutAFirstByteTheTimeAfterSendingIsWait() {
        let t = PhaseTimings(nameLookup: 1_000, connect: 2_000, appConnect: 0, preTransfer: 2_500, startTransfer: 0,
                             total: 5_002_500, reusedConnection: false)
        XCTAssertEqual(t.wait, 5_000)
        XCTAssertEqual(t.receive, -1)
    }

    func testARequestNeverSentHasNoSendWaitOrReceive() {
        let t = PhaseTimings(nameLookup: 1_000, connect: 0, appConnect: 0, preTransfer: 0, startTransfer: 0,
                             total: 3_000_000, reusedConnection: false)
        XCTAssertEqual([t.send, t.wait, t.receive], [-1, -1, -1])
        XCTAssertEqual(t.total, 3_000)
    }
}
