import Foundation
import ReqtopTestServer
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
