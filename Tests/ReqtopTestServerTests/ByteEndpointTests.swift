import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// `/bytes`, `/stream-bytes` and `/drip`.
final class ByteEndpointTests: ServerTestCase {
    func testBytesHasExactLengthAndContentLength() throws {
        let result = try exchange("/bytes/12345")
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.headers["content-length"], "12345")
        XCTAssertEqual(result.headers["content-type"], "application/octet-stream")
        XCTAssertEqual(result.body.count, 12345)
        XCTAssertEqual(Array(result.body), DeterministicBytes.prefix(12345))
    }

    func testBytesAreDeterministicPerSeedAndShorterIsPrefix() throws {
        let first = try body("/bytes/70001?seed=42")
        let again = try body("/bytes/70001?seed=42")
        let other = try body("/bytes/70001?seed=43")
        let shorter = try body("/bytes/1003?seed=42")
        XCTAssertEqual(first, again)
        XCTAssertNotEqual(first, other)
        XCTAssertEqual(shorter, first.prefix(1003))
        XCTAssertEqual(Set(first).count, 256, "the bytes cover the whole byte range")
    }

    func testZeroBytesIsAnEmptyBody() throws {
        let result = try exchange("/bytes/0")
        XCTAssertEqual(result.headers["content-length"], "0")
        XCTAssertTrue(result.body.isEmpty)
    }

    func testLargeBytesAreStreamedCompletely() throws {
        let size = 200 * 1024 * 1024
        let result = try curl(["-o", "/dev/null", "-w", "%{size_download}", url("/bytes/\(size)?seed=5")], timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, String(size))
    }

    func testRateLimitsTheSpeedOfBytes() throws {
        let started = Date()
        let result = try exchange("/bytes/262144?rate=524288")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.body.count, 262_144)
        XCTAssertEqual(Array(result.body), DeterministicBytes.prefix(262_144))
        XCTAssertGreaterThanOrEqual(elapsed, 0.35, "four 64 KiB blocks at 512 KiB/s take three pauses of 0.125 s")
        XCTAssertEqual(try exchange("/bytes/10?rate=0").status, 400)
    }

    func testStreamBytesIsChunkedAndMatchesBytesForTheSameSeed() throws {
        let result = try exchange("/stream-bytes/100000?chunk_size=777&seed=3")
        XCTAssertEqual(result.headers["transfer-encoding"], "chunked")
        XCTAssertNil(result.headers["content-length"])
        XCTAssertEqual(result.body, try body("/bytes/100000?seed=3"))
    }

    func testStreamBytesSendsChunksOfChunkSize() throws {
        let raw = try RawConnection(port: server.port)
        raw.send("GET /stream-bytes/25?chunk_size=10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: raw.read(), as: UTF8.self)
        let body = try XCTUnwrap(text.range(of: "\r\n\r\n")).upperBound
        let sizes = text[body...].components(separatedBy: "\r\n").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        XCTAssertEqual(Array(sizes.prefix(4)), ["a", "a", "5", "0"])
    }

    func testBadByteCountIs400() throws {
        XCTAssertEqual(try exchange("/bytes/lots").status, 400)
        XCTAssertEqual(try exchange("/stream-bytes/10?chunk_size=0").status, 400)
    }

    func testDripSpreadsBytesOverDurationAfterDelay() throws {
        let started = Date()
        let result = try exchange("/drip?numbytes=5&duration=0.5&delay=0.2&code=202")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 202)
        XCTAssertEqual(result.headers["content-length"], "5")
        XCTAssertEqual(result.body, Data("*****".utf8))
        XCTAssertGreaterThanOrEqual(elapsed, 0.2 + 0.5 * 4 / 5, "delay, then four pauses of duration/numbytes")
        XCTAssertLessThan(elapsed, 5)
    }

    func testDripDelaysTheHeaders() throws {
        let result = try curl(["-o", "/dev/null", "-w", "%{time_starttransfer}", url("/drip?numbytes=1&duration=0&delay=0.3")])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertGreaterThanOrEqual(Double(result.stdoutText) ?? 0, 0.3)
    }
}
