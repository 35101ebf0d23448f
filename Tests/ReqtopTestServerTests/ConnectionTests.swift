import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Concurrency, keep-alive and the server's lifecycle.
final class ConnectionTests: ServerTestCase {
    func testTwoHundredParallelConnectionsAreAllAnswered() throws {
        let urls = (0..<200).map { url("/delay/1?i=\($0)") }
        let result = try curl(
            ["--parallel", "--parallel-immediate", "--parallel-max", "200", "-w", "%{http_code}\n"]
                + urls.flatMap { ["-o", "/dev/null", $0] },
            timeout: 60
        )
        XCTAssertEqual(result.status, 0, result.stderrText)
        let codes = result.stdoutText.split(separator: "\n")
        XCTAssertEqual(codes.count, 200)
        XCTAssertEqual(Set(codes), ["200"])
        XCTAssertEqual(server.requestLog.count, 200)
        XCTAssertEqual(server.requestCount(path: "/delay/1"), 200)
        XCTAssertEqual(Set(server.requestLog.map(\.target)).count, 200)
        XCTAssertEqual(server.connectionCount, 200, "each request in flight at once has its own connection")
    }

    func testSequentialRequestsReuseOneKeepAliveConnection() throws {
        let result = try curl(["-o", "/dev/null", url("/get"), "-o", "/dev/null", url("/bytes/5000"),
                               "-o", "/dev/null", url("/stream-bytes/5000"), "-o", "/dev/null", url("/headers")])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(server.requestLog.count, 4)
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(Set(server.requestLog.map(\.connectionID)), [1])
    }

    func testConnectionCloseRequestClosesAfterResponse() throws {
        let raw = try RawConnection(port: server.port)
        raw.send("GET /get HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: raw.read(), as: UTF8.self)  // returns when the server closes
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK"))
        XCTAssertTrue(text.contains("Connection: close"))
    }

    func testRequestLogRecordsMethodTargetHeadersBodySizeAndConnection() throws {
        _ = try body("/post?x=1", ["-H", "X-Tag: t", "--data-binary", "abcdef"])
        let entry = try XCTUnwrap(server.requestLog.first)
        XCTAssertEqual(entry.method, "POST")
        XCTAssertEqual(entry.target, "/post?x=1")
        XCTAssertEqual(entry.path, "/post")
        XCTAssertEqual(entry.header("x-tag"), "t")
        XCTAssertEqual(entry.bodySize, 6)
        XCTAssertEqual(entry.connectionID, 1)
        XCTAssertEqual(server.requestCount(path: "/post"), 1)
    }

    func testPortZeroPicksAFreePortAndBusyPortIsAddressInUse() throws {
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(server.url("/get?a=1").absoluteString, "http://127.0.0.1:\(server.port)/get?a=1")
        XCTAssertThrowsError(try TestServer(port: server.port)) { error in
            XCTAssertEqual(error as? TestServerError, .addressInUse(port: server.port))
            XCTAssertTrue("\(error)".contains("port \(server.port)"))
        }
        XCTAssertThrowsError(try TestServer(host: "not-an-address")) { error in
            XCTAssertEqual(error as? TestServerError, .invalidHost("not-an-address"))
        }
    }

    func testStopIsIdempotentAndFreesThePort() throws {
        let port = server.port
        server.stop()
        server.stop()
        let again = try TestServer(port: port)
        again.stop()
    }

    func testStopWithoutStartReleasesThePort() throws {
        let idle = try TestServer()
        let port = idle.port
        idle.stop()
        XCTAssertNoThrow(try TestServer(port: port).stop())
    }
}
