import Foundation
import ReqtopRequestLists
import XCTest

final class HARExportTests: XCTestCase {
    private func exportEntry() -> HARExportEntry {
        HARExportEntry(
            startedDateTime: Date(timeIntervalSince1970: 1_800_000_000.25),
            request: .init(method: "POST", url: "https://api.example.org/items?x=1",
                           headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"a":1}"#.utf8)),
            response: .init(status: 201, statusText: "Created", headers: [HTTPHeader(name: "Location", value: "/items/9")],
                            bodySize: 3, mimeType: "application/octet-stream", body: Data([0xFF, 0x00, 0x7F])),
            timings: HARTimings(blocked: 2, dns: 10, connect: 40, ssl: 30, send: 1, wait: 100, receive: 20),
            serverIPAddress: "127.0.0.1")
    }

    func testExportHasEveryRequiredFieldAndTheTimings() throws {
        let data = try HARWriter.data(entries: [exportEntry()], creator: ("reqtop", "1.0"), redaction: SecretPolicy().redaction)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try XCTUnwrap(root["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertEqual((log["creator"] as? [String: Any])?["name"] as? String, "reqtop")
        let entry = try XCTUnwrap((log["entries"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry["startedDateTime"] as? String, "2027-01-15T08:00:00.250Z")
        for key in ["startedDateTime", "time", "request", "response", "cache", "timings"] { XCTAssertNotNil(entry[key], key) }
        let request = try XCTUnwrap(entry["request"] as? [String: Any])
        for key in ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"] {
            XCTAssertNotNil(request[key], "request.\(key)")
        }
        XCTAssertEqual((request["queryString"] as? [[String: String]])?.first?["name"], "x")
        let response = try XCTUnwrap(entry["response"] as? [String: Any])
        for key in ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"] {
            XCTAssertNotNil(response[key], "response.\(key)")
        }
        XCTAssertEqual(response["redirectURL"] as? String, "/items/9")
        let content = try XCTUnwrap(response["content"] as? [String: Any])
        XCTAssertEqual(content["encoding"] as? String, "base64")
        XCTAssertEqual(content["text"] as? String, Data([0xFF, 0x00, 0x7F]).base64EncodedString())
        let timings = try XCTUnwrap(entry["timings"] as? [String: Double])
        XCTAssertEqual(timings["blocked"], 2)
        XCTAssertEqual(timings["dns"], 10)
        XCTAssertEqual(timings["connect"], 40, "connect includes ssl")
        XCTAssertEqual(timings["ssl"], 30)
        XCTAssertEqual(timings["send"], 1)
        XCTAssertEqual(timings["wait"], 100)
        XCTAssertEqual(timings["receive"], 20)
        XCTAssertEqual(entry["time"] as? Double, 173)
    }

    func testExportedHARReimportsToTheSameRequests() throws {
        let entry = exportEntry()
        let data = try HARWriter.data(entries: [entry], creator: ("reqtop", "1.0"), redaction: SecretPolicy().redaction)
        let list = try HARImporter.parse(text: String(decoding: data, as: UTF8.self), path: "out.har")
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertEqual(list.specs[0].method, entry.request.method)
        XCTAssertEqual(list.specs[0].url, entry.request.url)
        XCTAssertEqual(list.specs[0].headers, entry.request.headers)
        XCTAssertEqual(list.specs[0].body, .text(#"{"a":1}"#))
    }
}
