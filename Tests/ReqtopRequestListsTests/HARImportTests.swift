import ReqtopRequestLists
import XCTest

final class HARImportTests: XCTestCase {
    func testChromeExportDropsPseudoAndHopByHopHeadersAndKeepsCookies() throws {
        let list = try Fixtures.load("har/chrome.har")
        XCTAssertEqual(list.format, .har)
        XCTAssertEqual(list.specs.count, 3)
        let graphql = list.specs[0]
        XCTAssertEqual(graphql.method, "POST")
        XCTAssertEqual(graphql.url, "https://api.example.org/graphql?op=Search")
        XCTAssertFalse(graphql.headers.contains { $0.name.hasPrefix(":") })
        XCTAssertNil(graphql.header(named: "content-length"))
        XCTAssertEqual(graphql.headers.filter { $0.name.lowercased() == "cookie" }.map(\.value), ["sid=abc123; theme=dark"],
                       "the cookie header is kept and not duplicated from the cookies list")
        XCTAssertEqual(graphql.body, .text(#"{"query":"query Search { items { id } }","v":1}"#))
        XCTAssertEqual(graphql.options.compressed, true)

        let image = list.specs[1]
        XCTAssertEqual(image.header(named: "Cookie"), "cdn_pref=eu", "cookies become a Cookie header when none is present")
        XCTAssertNil(image.body)

        XCTAssertEqual(list.specs[2].body, .text("user=ada&password=l%26vel"), "postData text is preferred over params")
        XCTAssertEqual(list.specs.map { $0.location?.line }, [40, 119, 160], "each spec points at its entry's request")
    }

    func testMitmproxyExportImports() throws {
        let list = try Fixtures.load("har/mitmproxy.har")
        XCTAssertEqual(list.specs.map(\.method), ["GET", "POST", "PUT"])
        let get = list.specs[0]
        XCTAssertEqual(get.url, "http://127.0.0.1:8080/api/items?page=1&sort=name")
        XCTAssertEqual(get.headers.map(\.name), ["Host", "User-Agent", "Accept-Encoding", "Accept", "Cookie"])
        XCTAssertEqual(get.header(named: "Cookie"), "session=xyz789")
        XCTAssertEqual(list.specs[1].body, .form([FormField(name: "name", value: "Ada Lovelace"), FormField(name: "lang", value: "en")]))
        XCTAssertEqual(list.specs[2].headers.map(\.name), ["Host", "Content-Type", "Authorization"])
        XCTAssertEqual(list.specs[2].body, .text(#"{"report": "ok"}"#))
        XCTAssertNoThrow(try RequestResolver(list: list).validate())
    }

    func testContentIsSniffedWhenTheExtensionIsUnknown() throws {
        let text = try Fixtures.text("har/mitmproxy.har")
        XCTAssertEqual(RequestListFormat.sniff(text), .har)
        XCTAssertEqual(RequestListFormat.sniff("# copied\ncurl http://x.example/"), .curl)
        XCTAssertEqual(RequestListFormat.sniff("GET http://x.example/"), .http)
    }
}

final class HARLenientImportTests: XCTestCase {
    func testOddResponseCacheAndTimingsDoNotStopTheImport() throws {
        let text = """
        {"log": {"entries": [{"request": {"method": "get", "url": "http://x.example/a", "headers": []},
                              "response": "not an object", "cache": [], "timings": {"send": "fast"}}]}}
        """
        let list = try HARImporter.parse(text: text, path: "odd.har")
        XCTAssertEqual(list.specs.map(\.method), ["get"], "the method is kept as written")
        XCTAssertEqual(list.specs.first?.location?.line, 1)
    }
}
