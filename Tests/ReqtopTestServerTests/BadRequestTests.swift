import Foundation
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Malformed input from a client gets a 400 and a closed connection; the server keeps serving.
final class BadRequestTests: ServerTestCase {
    func testMalformedRequestLineGets400AndOtherConnectionsKeepWorking() throws {
        let bystander = try RawConnection(port: server.port)
        bystander.send("GET /get HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(bystander.readResponse().hasPrefix("HTTP/1.1 200 OK"))

        let bad = try RawConnection(port: server.port)
        bad.send("GARBAGE\r\n\r\n")
        let answer = String(decoding: bad.read(), as: UTF8.self)  // until the server closes
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), answer)
        XCTAssertTrue(answer.contains("Connection: close"), answer)

        bystander.send("GET /headers HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(bystander.readResponse().hasPrefix("HTTP/1.1 200 OK"), "the keep-alive bystander still works")
        let fresh = try exchange("/get")
        XCTAssertEqual(fresh.status, 200)
    }

    func testAHugeChunkSizeAfterAChunkIsRefusedWithoutCrashing() throws {
        let bad = try RawConnection(port: server.port)
        bad.send("POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n7fffffffffffffff\r\n")
        let answer = String(decoding: bad.read(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 4"), String(answer.prefix(200)))
        XCTAssertEqual(try exchange("/get").status, 200, "the server is still up")
    }

    func testAbsurdWaitsAreBoundedInsteadOfTrapping() throws {
        // The server (in this process) used to trap converting 1e11 s to nanoseconds: a crash fails the run.
        var waiting: [RawConnection] = []
        for target in ["/delay/1e11", "/drip?delay=1e11&numbytes=1", "/fault/stall?seconds=1e11", "/delay/18446744073"] {
            let slow = try RawConnection(port: server.port)
            _ = slow.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            waiting.append(slow)
        }
        try eventually(timeout: 5, every: 0) {
            if server.requestLog.filter({ $0.path != "/headers" }).count >= 4 { return true }
            _ = try exchange("/headers")
            return false
        }
        XCTAssertGreaterThanOrEqual(server.requestLog.filter { $0.path != "/headers" }.count, 4, "every absurd wait has begun")
        XCTAssertEqual(try exchange("/get").status, 200, "the server is still up")
        withExtendedLifetime(waiting) {}
    }

    func testALargeContentLengthIs413AtOnceNotABufferOfThatSize() throws {
        let bad = try RawConnection(port: server.port)
        bad.send("POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 268435456\r\n\r\n0123456789")
        let answer = String(decoding: bad.read(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 413 "), String(answer.prefix(200)))
        XCTAssertEqual(try exchange("/get").status, 200)
    }

    func testAClientThatStopsSendingIsDisconnectedAfterTheReadTimeout() throws {
        let quick = try TestServer(readTimeout: 0.3)
        quick.start()
        defer { quick.stop() }
        let stalled = try RawConnection(port: quick.port)
        stalled.send("POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789") // and nothing more
        let started = Date()
        _ = stalled.read(timeout: 10) // until the server closes
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "closed by the read timeout, not held forever")
        let slowloris = try RawConnection(port: quick.port)
        slowloris.send("GET /get HTTP/1.1\r\n") // a head that never ends
        _ = slowloris.read(timeout: 10)
        XCTAssertEqual(quick.requestLog.count, 0, "neither was served")
    }

    func testPastTheConnectionCapNewClientsGet503AndTheServerRecovers() throws {
        var idle: [RawConnection] = []
        for _ in 0..<TestServer.maxConnections { idle.append(try RawConnection(port: server.port)) }
        // The accept thread registers connections in order: wait until all are counted.
        eventually(timeout: 10) { server.connectionCount >= TestServer.maxConnections }
        let refused = try RawConnection(port: server.port)
        refused.send("GET /get HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(String(decoding: refused.read(), as: UTF8.self).hasPrefix("HTTP/1.1 503 "), "told at once, not queued")
        idle.removeAll() // they close
        var status = 0
        eventually(timeout: 10, every: 0.02) {
            status = (try? exchange("/get"))?.status ?? 0
            return status == 200
        }
        XCTAssertEqual(status, 200, "serving again once the idle connections went")
    }

    func testRequestLineWithoutVersionGets400() throws {
        let bad = try RawConnection(port: server.port)
        bad.send("GET /get\r\n\r\n")
        XCTAssertTrue(String(decoding: bad.read(), as: UTF8.self).hasPrefix("HTTP/1.1 400 "))
    }

    func testHeaderLineWithoutColonGets400() throws {
        let bad = try RawConnection(port: server.port)
        bad.send("GET /get HTTP/1.1\r\nHost x\r\n\r\n")
        XCTAssertTrue(String(decoding: bad.read(), as: UTF8.self).hasPrefix("HTTP/1.1 400 "))
    }

    func testHeadersOver64KiBGet400AndServerKeepsServing() throws {
        let bad = try RawConnection(port: server.port)
        bad.send("GET /get HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 70 * 1024) + "\r\n\r\n")
        let answer = String(decoding: bad.read(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("exceed"), answer)

        let endless = try RawConnection(port: server.port)
        endless.send("GET /get HTTP/1.1\r\nX-Endless: ")
        var chunk = [UInt8](repeating: UInt8(ascii: "b"), count: 64 * 1024)
        chunk += chunk
        for _ in 0..<8 where endless.send(chunk) {}
        XCTAssertTrue(String(decoding: endless.read(), as: UTF8.self).hasPrefix("HTTP/1.1 400 "),
                      "a header that never ends is cut off at the limit")

        XCTAssertEqual(try exchange("/get").status, 200)
        XCTAssertEqual(server.requestCount(path: "/get"), 1, "rejected requests are not logged as served")
    }
}
