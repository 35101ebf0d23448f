import ReqtopHTTPModel
import ReqtopNetworking
import XCTest
@testable import ReqtopTasks

/// A task's messages in the store stay within their memory bound, oldest let go first and counted.
final class StreamMessageLogTests: XCTestCase {
    func testTheOldestMessagesAreLetGoPastTheBoundAndCounted() {
        var log = StreamMessageLog()
        let total = StreamMessageLog.maxKept + 5000
        for n in 1...total {
            log.append(StreamMessage(format: .ndjson, index: n, data: "{\"n\":\(n)}", size: 8), at: Double(n))
        }
        XCTAssertEqual(log.count, total)
        XCTAssertEqual(log.entries.count, StreamMessageLog.maxKept)
        XCTAssertEqual(log.released, 5000)
        XCTAssertEqual(log.entries.first?.message.index, 5001)
        XCTAssertEqual(log.totalBytes, Int64(total * 8))

        var big = StreamMessageLog()
        let data = String(repeating: "x", count: 1 << 20)
        for n in 1...20 { big.append(StreamMessage(format: .sse, index: n, data: data, size: 5 << 20, isWhole: false), at: Double(n)) }
        XCTAssertLessThanOrEqual(big.keptBytes, StreamMessageLog.maxKeptBytes)
        XCTAssertEqual(big.released + big.entries.count, 20)
        XCTAssertEqual(big.totalBytes, 20 * (5 << 20), "the bytes that arrived are counted, kept or not")
    }
}
