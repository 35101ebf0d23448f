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

    /// HAR 1.2 asks for `request.cookies` and `response.cookies`: read from the Cookie and Set-Cookie
    /// fields as sent, which stay in `headers` too; a redacted cookie is redacted in both.
    func testCookiesAreListedFromTheCookieAndSetCookieFields() throws {
        var entry = exportEntry()
        entry.request.headers += [HTTPHeader(name: "Cookie", value: "theme=dark; lang = en ;flag"),
                                  HTTPHeader(name: "cookie", value: "b=2=3")]
        entry.response.headers += [HTTPHeader(name: "Set-Cookie", value: "sid=abc; Path=/; Domain=example.org; Expires=Wed, 09 Jun 2027 10:18:14 GMT; Secure; HttpOnly"),
                                   HTTPHeader(name: "set-cookie", value: "plain=1")]
        let data = try HARWriter.data(entries: [entry], creator: ("reqtop", "1.0"), redaction: nil)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let har = try XCTUnwrap((root["log"] as? [String: Any])?["entries"] as? [[String: Any]]).first
        let sent = try XCTUnwrap((har?["request"] as? [String: Any])?["cookies"] as? [[String: Any]])
        XCTAssertEqual(sent.map { "\($0["name"]!)=\($0["value"]!)" }, ["theme=dark", "lang=en", "=flag", "b=2=3"])
        let set = try XCTUnwrap((har?["response"] as? [String: Any])?["cookies"] as? [[String: Any]])
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(set[0]["name"] as? String, "sid")
        XCTAssertEqual(set[0]["value"] as? String, "abc")
        XCTAssertEqual(set[0]["path"] as? String, "/")
        XCTAssertEqual(set[0]["domain"] as? String, "example.org")
        XCTAssertEqual(set[0]["expires"] as? String, "Wed, 09 Jun 2027 10:18:14 GMT")
        XCTAssertEqual(set[0]["secure"] as? Bool, true)
        XCTAssertEqual(set[0]["httpOnly"] as? Bool, true)
        XCTAssertNil(set[1]["path"])
        XCTAssertEqual(set[1]["value"] as? String, "1")

        let hidden = try HARWriter.data(entries: [entry], creator: ("reqtop", "1.0"), redaction: SecretPolicy().redaction)
        XCTAssertFalse(String(decoding: hidden, as: UTF8.self).contains("abc"), "the session cookie is hidden in cookies as in headers")
    }
}
