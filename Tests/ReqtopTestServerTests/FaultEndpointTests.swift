import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Each `/fault/` endpoint breaks the exchange in its documented way (curl's exit codes are curl 7.88's).
final class FaultEndpointTests: ServerTestCase {
    func testResetSendsAfterBytesThenResetsTheConnection() throws {
        let result = try curl(["-o", "-", url("/fault/reset?after=5000")])
        XCTAssertEqual(result.status, 56, "CURLE_RECV_ERROR (connection reset): \(result.stderrText)")
        XCTAssertTrue(result.stderrText.lowercased().contains("reset"), result.stderrText)
        XCTAssertLessThanOrEqual(result.stdout.count, 5000)
        XCTAssertEqual(result.stdout, Data(DeterministicBytes.prefix(result.stdout.count)))

        let raw = try RawConnection(port: server.port)
        raw.send("GET /fault/reset?after=10 HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = String(decoding: raw.read(), as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Length: 1000010"), "announces more than it sends: \(text)")
    }

    func testStallSendsNothingUntilTheClientGivesUp() throws {
        let result = try curl(["--max-time", "0.5", url("/fault/stall")])
        XCTAssertEqual(result.status, 28, "CURLE_OPERATION_TIMEDOUT: \(result.stderrText)")
        XCTAssertTrue(result.stdout.isEmpty)
    }

    func testStallWithSecondsClosesWithoutResponse() throws {
        let result = try curl([url("/fault/stall?seconds=0.2")])
        XCTAssertEqual(result.status, 52, "CURLE_GOT_NOTHING: \(result.stderrText)")
    }

    func testTruncatedChunkedEndsWithoutTerminatingChunk() throws {
        let result = try curl([url("/fault/truncated-chunked")])
        XCTAssertTrue([18, 56].contains(result.status), "partial file or recv error, got \(result.status): \(result.stderrText)")
        XCTAssertEqual(result.stdoutText, "chunk 1\nchunk 2\nchunk 3\n")
    }

    func testBadStatusLineIsRejectedByCurl() throws {
        let result = try curl([url("/fault/bad-status")])
        // curl 7.88 reports "Unsupported HTTP version in response" (1); newer curl "Invalid status line" (8).
        XCTAssertTrue([1, 8].contains(result.status), "got \(result.status): \(result.stderrText)")
        let raw = try RawConnection(port: server.port)
        raw.send("GET /fault/bad-status HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(String(decoding: raw.read(), as: UTF8.self).hasPrefix("HTTP/1.1 abc Broken\r\n"))
    }

    func testHugeHeaderIsOneMebibyte() throws {
        let result = try curl([url("/fault/huge-header")])
        XCTAssertNotEqual(result.status, 0, "curl refuses response headers over its 100 KB limit")

        let raw = try RawConnection(port: server.port)
        raw.send("GET /fault/huge-header HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = String(decoding: raw.read(timeout: 10), as: UTF8.self)
        let line = try XCTUnwrap(text.components(separatedBy: "\r\n").first { $0.hasPrefix("X-Huge: ") })
        XCTAssertEqual(line.utf8.count - "X-Huge: ".utf8.count, 1 << 20)
        XCTAssertTrue(text.hasSuffix("\r\n\r\nok\n"))
    }

    func testEscapeCarriesControlSequencesVerbatimInHeadersAndBody() throws {
        let raw = try exchange("/fault/escape")
        XCTAssertEqual(raw.headers["content-type"], "text/plain")
        let body = Array(raw.body)
        let sequences: [[UInt8]] = [
            Array("\u{1B}[31m".utf8), Array("\u{1B}]0;pwned\u{07}".utf8), Array("\u{202E}".utf8), [0xFF, 0xFE],
        ]
        let socket = try RawConnection(port: server.port)
        socket.send("GET /fault/escape HTTP/1.1\r\nHost: x\r\n\r\n")
        let whole = socket.read()
        let head = Array(whole.prefix(try XCTUnwrap(find([13, 10, 13, 10], in: whole))))
        for sequence in sequences {
            XCTAssertNotNil(find(sequence, in: body), "body carries \(sequence)")
            XCTAssertNotNil(find(Array("X-Escape: ".utf8) + Array("\u{1B}[31m".utf8), in: head), "header starts with CSI")
            XCTAssertNotNil(find(sequence, in: head), "header carries \(sequence)")
        }
    }

    func testDripForeverDripsUntilTheClientGivesUp() throws {
        let result = try curl(["--max-time", "0.55", url("/fault/drip-forever")])
        XCTAssertEqual(result.status, 28, result.stderrText)
        XCTAssertGreaterThanOrEqual(result.stdout.count, 2, "about one byte per 100 ms")
        XCTAssertLessThanOrEqual(result.stdout.count, 8)
        XCTAssertEqual(Set(result.stdout), [UInt8(ascii: "*")])
    }

    func testStopReturnsPromptlyWhileStallAndDripForeverAreOpen() throws {
        let curlPath = try XCTUnwrap(findExecutable(named: "curl"))
        let stall = try RunningProcess(curlPath, ["-sS", url("/fault/stall")])
        let drip = try RunningProcess(curlPath, ["-sS", "-o", "/dev/null", url("/fault/drip-forever")])
        let slowReader = try RawConnection(port: server.port)  // never reads: the server blocks in send
        slowReader.send("GET /bytes/100000000 HTTP/1.1\r\nHost: x\r\n\r\n")
        defer {
            stall.terminate()
            drip.terminate()
        }
        XCTAssertTrue(eventually {
            server.requestCount(path: "/fault/stall") == 1 && server.requestCount(path: "/fault/drip-forever") == 1
                && server.requestCount(path: "/bytes/100000000") == 1
        })
        let started = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
        XCTAssertNotNil(stall.waitForExit(timeout: 5), "the stalled client sees the connection close")
        XCTAssertNotNil(drip.waitForExit(timeout: 5))
        server.stop()  // idempotent
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
