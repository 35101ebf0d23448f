import Foundation
import ReqtopTestServer
import XCTest

/// `/get`, `/headers`, the body echoes, `/delay`, `/gzip`, the index and 404.
final class EchoEndpointTests: ServerTestCase {
    func testGetEchoesArgsHeadersOriginAndURL() throws {
        let document = try json("/get?a=1&a=2&b=x%20y", ["-H", "X-Probe: seen"])
        let args = try XCTUnwrap(document["args"] as? [String: Any])
        XCTAssertEqual(args["a"] as? [String], ["1", "2"])
        XCTAssertEqual(args["b"] as? String, "x y")
        let headers = try XCTUnwrap(document["headers"] as? [String: String])
        XCTAssertEqual(headers["X-Probe"], "seen")
        XCTAssertEqual(headers["Host"], "127.0.0.1:\(server.port)")
        XCTAssertEqual(document["origin"] as? String, "127.0.0.1")
        XCTAssertEqual(document["url"] as? String, url("/get?a=1&a=2&b=x%20y"))
    }

    func testGetRefusesPostWith405() throws {
        let result = try exchange("/get", ["-X", "POST"])
        XCTAssertEqual(result.status, 405)
        XCTAssertEqual(result.headers["allow"], "GET, HEAD")
    }

    func testHeadersEchoesOnlyHeaders() throws {
        let document = try json("/headers", ["-H", "X-One: 1"])
        XCTAssertEqual(Array(document.keys), ["headers"])
        XCTAssertEqual((document["headers"] as? [String: String])?["X-One"], "1")
    }

    func testPostPutPatchDeleteEchoBodyWithSizeAndSHA256() throws {
        let payload = #"{"name":"reqtop","n":3}"#
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            let path = "/" + method.lowercased()
            let document = try json(path + "?q=1", ["-X", method, "-H", "Content-Type: application/json", "--data-binary", payload])
            XCTAssertEqual(document["method"] as? String, method)
            XCTAssertEqual(document["data"] as? String, payload)
            XCTAssertEqual((document["json"] as? [String: Any])?["name"] as? String, "reqtop")
            XCTAssertEqual((document["args"] as? [String: Any])?["q"] as? String, "1")
            XCTAssertEqual(document["body_size"] as? Int, payload.utf8.count)
            XCTAssertEqual(document["sha256"] as? String, try systemSHA256(Data(payload.utf8)))
            XCTAssertEqual(document["url"] as? String, url(path + "?q=1"))
        }
        XCTAssertEqual(server.requestLog.map(\.bodySize), Array(repeating: payload.utf8.count, count: 4))
    }

    func testPostEchoesFormFields() throws {
        let document = try json("/post", ["--data", "a=1&b=two+words"])
        XCTAssertEqual(document["form"] as? [String: String], ["a": "1", "b": "two words"])
        XCTAssertEqual(document["data"] as? String, "")
        XCTAssertTrue(document["json"] is NSNull)
    }

    func testPostOfBinaryBodyReportsBase64DataAndExactSHA256() throws {
        let bytes = Data(DeterministicBytes.prefix(3000, seed: 9))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).bin")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let document = try json("/post", ["-H", "Content-Type: application/octet-stream", "--data-binary", "@" + file.path])
        XCTAssertEqual(document["data"] as? String, "data:application/octet-stream;base64," + bytes.base64EncodedString())
        XCTAssertEqual(document["body_size"] as? Int, 3000)
        XCTAssertEqual(document["sha256"] as? String, try systemSHA256(bytes))
    }

    func testChunkedRequestBodyIsReassembled() throws {
        let document = try json("/put", ["-X", "PUT", "-H", "Transfer-Encoding: chunked", "-H", "Content-Type: text/plain", "--data-binary", "hello chunks"])
        XCTAssertEqual(document["data"] as? String, "hello chunks")
        XCTAssertEqual(document["body_size"] as? Int, 12)
    }

    func testLargeBodyWithExpectContinueIsEchoed() throws {
        let bytes = Data(DeterministicBytes.prefix(2 * 1024 * 1024, seed: 4))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).bin")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let started = Date()
        let document = try json("/post", ["-H", "Content-Type: application/octet-stream", "--data-binary", "@" + file.path])
        XCTAssertEqual(document["body_size"] as? Int, bytes.count)
        XCTAssertEqual(document["sha256"] as? String, try systemSHA256(bytes))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "100-continue is answered, curl does not wait it out")
    }

    func testDelayWaitsFractionalSecondsThenEchoes() throws {
        let started = Date()
        let document = try json("/delay/0.3?x=1")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 3)
        XCTAssertEqual((document["args"] as? [String: Any])?["x"] as? String, "1")
        XCTAssertEqual(document["url"] as? String, url("/delay/0.3?x=1"))
    }

    func testGzipIsGzipEncodedJSON() throws {
        let raw = try exchange("/gzip")
        XCTAssertEqual(raw.headers["content-encoding"], "gzip")
        XCTAssertEqual(Array(raw.body.prefix(2)), [0x1F, 0x8B], "gzip magic bytes")
        let document = try json("/gzip", ["--compressed"])
        XCTAssertEqual(document["gzipped"] as? Bool, true)
        XCTAssertEqual(document["method"] as? String, "GET")
    }

    func testIndexListsEveryEndpointAndFault() throws {
        let index = String(decoding: try body("/"), as: UTF8.self)
        for path in ["/get", "/headers", "/status/", "/bytes/", "/stream-bytes/", "/drip", "/delay/", "/redirect/",
                     "/redirect-to", "/post", "/put", "/patch", "/delete", "/gzip", "/basic-auth/", "/cookies",
                     "/cookies/set", "/fault/reset", "/fault/stall", "/fault/truncated-chunked", "/fault/bad-status",
                     "/fault/huge-header", "/fault/escape", "/fault/drip-forever"] {
            XCTAssertTrue(index.contains(path), "index lists \(path)")
        }
    }

    func testUnknownPathIs404() throws {
        XCTAssertEqual(try exchange("/no/such/thing").status, 404)
        XCTAssertEqual(try exchange("/fault/no-such-fault").status, 404)
    }
}
