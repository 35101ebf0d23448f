import Foundation
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

    /// A recorded `Content-Length: 0` on a request without a body goes out as recorded (nothing else
    /// would send one); the fields that are not replayed are named in one warning, with their counts.
    func testAnEmptyBodysLengthIsKeptAndTheFieldsLeftOutAreNamed() throws {
        let entry = { (url: String, headers: String, post: String) in
            #"{"request":{"method":"POST","url":"\#(url)","headers":[\#(headers)],"cookies":[]\#(post)}}"#
        }
        let text = #"{"log":{"version":"1.2","entries":["#
            + entry("http://h.test/empty", #"{"name":"Connection","value":"keep-alive"},{"name":"content-length","value":"0"}"#, "") + ","
            + entry("http://h.test/body", #"{"name":":authority","value":"h.test"},{"name":"Connection","value":"close"},{"name":"Content-Length","value":"2"}"#,
                    #","postData":{"mimeType":"text/plain","text":"hi"}"#)
            + "]}}"
        let list = try HARImporter.parse(text: text, path: "length.har")
        XCTAssertEqual(list.specs[0].headers.map(\.description), ["content-length: 0"])
        XCTAssertEqual(list.specs[1].headers.map(\.description), ["Content-Type: text/plain"])
        XCTAssertEqual(list.warnings.map(\.message), ["recorded header fields not replayed (they belong to the recorded connection; "
                                                      + "the client sends its own, and the body's length): Connection ×2, Content-Length ×1"])
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

/// The importer parses each HAR once, keeping positions, so a minified archive (one line) still
/// gets exact columns for its specs and its errors.
final class HARSingleParseTests: XCTestCase {
    /// A one-line HAR whose entries have the given request members.
    private func minified(_ requests: [String]) -> String {
        #"{"log":{"version":"1.2","creator":{"name":"é","version":"1"},"entries":["#
            + requests.map { #"{"startedDateTime":"x","request":{\#($0)},"response":{}}"# }.joined(separator: ",") + "]}}"
    }

    private func request(_ n: Int) -> String { #""method":"GET","url":"http://x.example/\#(n)","headers":[]"# }

    /// 1-based column, in characters, of the `occurrence`-th match of `needle`.
    private func column(of needle: String, occurrence: Int = 1, in text: String) -> Int {
        var searchStart = text.startIndex
        var found = text.startIndex
        for _ in 0..<occurrence {
            let range = text.range(of: needle, range: searchStart..<text.endIndex)!
            found = range.lowerBound
            searchStart = range.upperBound
        }
        return text.distance(from: text.startIndex, to: found) + 1
    }

    func testSpecsOfAMinifiedHARPointAtEachRequest() throws {
        let text = minified((1...4).map(request))
        let list = try HARImporter.parse(text: text, path: "min.har")
        XCTAssertEqual(list.specs.map(\.url), (1...4).map { "http://x.example/\($0)" })
        XCTAssertEqual(list.specs.map { $0.location?.line }, [1, 1, 1, 1])
        XCTAssertEqual(list.specs.map { $0.location?.column }, (1...4).map { column(of: #""request""#, occurrence: $0, in: text) })
    }

    func testAWrongTypeInEntryThreeIsReportedAtItsMember() {
        let text = minified([request(1), request(2), #""method":5,"url":"http://x.example/3""#, request(4)])
        XCTAssertThrowsError(try HARImporter.parse(text: text, path: "min.har")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.line, 1)
            XCTAssertEqual(error?.column, column(of: #""method":5"#, in: text))
            XCTAssertEqual(error?.message,
                           "not a HAR 1.2 archive: unexpected value at log.entries[2].request.method: expected a string, found a number")
        }
    }

    func testAMissingFieldInEntryThreeIsReportedAtItsRequest() {
        let text = minified([request(1), request(2), #""method":"GET""#, request(4)])
        XCTAssertThrowsError(try HARImporter.parse(text: text, path: "min.har")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.column, column(of: #""request""#, occurrence: 3, in: text))
            XCTAssertEqual(error?.message, "not a HAR 1.2 archive: missing field 'url' at log.entries[2].request")
        }
    }

    func testAnEntryWithoutARequestIsReportedAtTheEntry() {
        let text = minified([request(1), request(2)]).replacingOccurrences(of: "]}}", with: #",{"response":{}}]}}"#)
        XCTAssertThrowsError(try HARImporter.parse(text: text, path: "min.har")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.column, column(of: #"{"response":{}}]"#, in: text))
            XCTAssertEqual(error?.message, "not a HAR 1.2 archive: missing field 'request' at log.entries[2]")
        }
    }

    func testALargeOneLineHARImportsInLinearTime() throws {
        let count = 40_000
        let text = minified((1...count).map(request))
        let start = Date()
        let list = try HARImporter.parse(text: text, path: "big.har")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, 30, "\(text.utf8.count) bytes: rescanning the line for each value takes hours")
        XCTAssertEqual(list.specs.count, count)
        XCTAssertEqual(list.specs.last?.location?.column, column(of: #""request""#, occurrence: count, in: text))
    }

    func testAProxysCONNECTTunnelEntryIsSkippedWithAWarning() throws {
        let har = #"{"log":{"version":"1.2","creator":{"name":"reqtop","version":"1"},"entries":[{"startedDateTime":"2026-12-01T00:00:00Z","time":1,"request":{"method":"CONNECT","url":"https://h.test:443","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"Connection established","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"mimeType":""},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":0,"receive":0}},{"startedDateTime":"2026-12-01T00:00:00Z","time":1,"request":{"method":"GET","url":"https://h.test/a","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"mimeType":""},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}"#
        let list = try RequestListLoader.load(text: har, path: "proxy.har", format: .har)
        XCTAssertEqual(list.specs.map(\.method), ["GET"])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("CONNECT tunnel") }, "\(list.warnings)")
    }
}
