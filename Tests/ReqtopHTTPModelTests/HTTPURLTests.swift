import ReqtopHTTPModel
import XCTest

final class HTTPURLTests: XCTestCase {
    func testTheURLIsKeptAsWrittenAndEscapesAreNeverReencoded() throws {
        let url = try XCTUnwrap(HTTPURL(string: "http://h.test:8080/a/b?a=%3A&b=[1]&c=|x|&d=%zz#frag"))
        XCTAssertEqual(url.absoluteString, "http://h.test:8080/a/b?a=%3A&b=[1]&c=|x|&d=%zz#frag")
        XCTAssertEqual(url.requestTarget, "/a/b?a=%3A&b=[1]&c=|x|&d=%zz", "the fragment is never sent")
        XCTAssertEqual(url.host, "h.test")
        XCTAssertEqual(url.port, 8080)
        XCTAssertEqual(url.authority, "h.test:8080")
    }

    func testOnlyBytesThatCannotBeInARequestTargetAreEscaped() throws {
        let url = try XCTUnwrap(HTTPURL(string: "http://h.test/a b?q=ü&t=\u{1}"))
        XCTAssertEqual(url.requestTarget, "/a%20b?q=%C3%BC&t=%01")
    }

    /// The parts are offsets into the text as sent: found again after the path is escaped.
    func testEveryPartIsFoundAroundUserInfoEscapesAndFragments() throws {
        let url = try XCTUnwrap(HTTPURL(string: "  HTTPS://user:p%40ss@bücher.test:8443/a b/ü?q=1 2#frag?x \n"))
        XCTAssertEqual(url.absoluteString, "HTTPS://user:p%40ss@bücher.test:8443/a%20b/%C3%BC?q=1%202#frag?x")
        XCTAssertEqual(url.scheme, "https")
        XCTAssertEqual(url.userInfo, "user:p%40ss")
        XCTAssertEqual(url.host, "bücher.test")
        XCTAssertEqual(url.port, 8443)
        XCTAssertEqual(url.path, "/a%20b/%C3%BC")
        XCTAssertEqual(url.query, "q=1%202")
        XCTAssertEqual(url.fragment, "frag?x")
        let bare = try XCTUnwrap(HTTPURL(string: "http://h.test#a?b"))
        XCTAssertEqual([bare.path, bare.host], ["", "h.test"])
        XCTAssertNil(bare.query, "a '?' after '#' is part of the fragment")
        XCTAssertEqual(bare.fragment, "a?b")
        XCTAssertEqual(bare.requestTarget, "/")
        XCTAssertNil(HTTPURL(string: "http://user@:80/"), "no host")
        XCTAssertNil(HTTPURL(string: "http://[::1/"), "an unclosed IPv6 literal")
    }

    func testAuthorityForms() throws {
        XCTAssertEqual(HTTPURL(string: "http://[::1]:81/x")?.host, "::1")
        XCTAssertEqual(HTTPURL(string: "http://[::1]:81/x")?.authority, "[::1]:81")
        XCTAssertEqual(HTTPURL(string: "https://u:p@h.test/")?.userInfo, "u:p")
        XCTAssertEqual(HTTPURL(string: "https://h.test")?.requestTarget, "/")
        XCTAssertEqual(HTTPURL(string: "https://h.test")?.effectivePort, 443)
        XCTAssertNil(HTTPURL(string: "http://h.test:99999/"), "port out of range")
        XCTAssertNil(HTTPURL(string: "http://h.test:8o/"), "port not a number")
        XCTAssertNil(HTTPURL(string: "h.test/x"), "no scheme")
        XCTAssertNil(HTTPURL(string: "http:///x"), "no host")
    }

    func testReferencesResolveAsRFC3986Says() throws {
        let base = try XCTUnwrap(HTTPURL(string: "http://h.test/a/b/c?q=1#f"))
        XCTAssertEqual(base.resolving("d")?.absoluteString, "http://h.test/a/b/d#f")
        XCTAssertEqual(base.resolving("../d?x=[1]")?.absoluteString, "http://h.test/a/d?x=[1]#f")
        XCTAssertEqual(base.resolving("/e/./f/../g")?.absoluteString, "http://h.test/e/g#f")
        XCTAssertEqual(base.resolving("?z=2")?.absoluteString, "http://h.test/a/b/c?z=2#f")
        XCTAssertEqual(base.resolving("//other.test:8/p")?.absoluteString, "http://other.test:8/p")
        XCTAssertEqual(base.resolving("https://x.test/y#g")?.absoluteString, "https://x.test/y#g")
        XCTAssertEqual(base.resolving("/with space")?.requestTarget, "/with%20space")
        XCTAssertEqual(HTTPURL.scheme(of: "file:///dev/zero"), "file")
        XCTAssertEqual(HTTPURL.scheme(of: "DICT://h/x"), "dict")
        XCTAssertNil(HTTPURL.scheme(of: "/relative:colon"))
    }

    func testOriginComparesSchemeHostAndEffectivePort() throws {
        let a = try XCTUnwrap(HTTPURL(string: "http://H.test/x"))
        XCTAssertTrue(a.hasSameOrigin(as: try XCTUnwrap(HTTPURL(string: "http://h.test:80/y"))))
        XCTAssertFalse(a.hasSameOrigin(as: try XCTUnwrap(HTTPURL(string: "https://h.test/x"))))
        XCTAssertFalse(a.hasSameOrigin(as: try XCTUnwrap(HTTPURL(string: "http://h.test:81/x"))))
    }
}

final class MessageTests: XCTestCase {
    func testAWireHeadParsesLineByLineKeepingOddValues() throws {
        let url = try XCTUnwrap(HTTPURL(string: "http://h.test/x"))
        let text = "wHat /x HTTP/1.1\r\nHost: h.test\r\nX-Sep: a\u{2028}b\r\nX-Empty:\r\nx-dup: 1\r\nX-Dup: 2\r\n\r\n"
        let head = try XCTUnwrap(RequestHead(wireText: text, url: url, hop: 2))
        XCTAssertEqual(head.method, "wHat")
        XCTAssertEqual(head.hop, 2)
        XCTAssertEqual(head.lines, ["wHat /x HTTP/1.1", "Host: h.test", "X-Sep: a\u{2028}b", "X-Empty:", "x-dup: 1", "X-Dup: 2"])
        XCTAssertEqual(head.size, text.utf8.count)
        XCTAssertEqual(head.headers.values(for: "X-DUP"), ["1", "2"])
        XCTAssertNil(RequestHead(wireText: "garbage\r\n\r\n", url: url))
    }

    /// libcurl's bytes as they are: LF-only lines, a bare CR kept inside a value, no final line
    /// ending, bytes that are not UTF-8 (replaced in the text, counted as they were in the size).
    func testAWireHeadFromBytes() throws {
        let url = try XCTUnwrap(HTTPURL(string: "http://h.test/x"))
        let bytes = Array("GET  /x  HTTP/1.1\nHost: h.test\nX-Odd: a\rb \nX-Bin: ".utf8) + [0xFF] + Array("\nno colon here\nX-Last:\tv".utf8)
        let head = try XCTUnwrap(bytes.withUnsafeBytes { RequestHead(wireBytes: $0, url: url) })
        XCTAssertEqual(head.requestLine, "GET /x HTTP/1.1")
        XCTAssertEqual(head.headers, [HTTPHeader(name: "Host", value: "h.test"), HTTPHeader(name: "X-Odd", value: "a\rb "),
                                      HTTPHeader(name: "X-Bin", value: "\u{FFFD}"), HTTPHeader(name: "X-Last", value: "v")])
        XCTAssertEqual(head.size, bytes.count)
        for bad in ["GET /x", "GET\t/x HTTP/1.1", "GET /x HTTP/1.1 extra", "", "\r\nGET /x HTTP/1.1"] {
            XCTAssertNil(Array(bad.utf8).withUnsafeBytes { RequestHead(wireBytes: $0, url: url) }, bad)
        }
    }

    func testMethodsAreAnyToken() {
        XCTAssertTrue(HTTPRequest.isValidMethod("PROPFIND"))
        XCTAssertTrue(HTTPRequest.isValidMethod("wHat"))
        XCTAssertFalse(HTTPRequest.isValidMethod("GET /"))
        XCTAssertFalse(HTTPRequest.isValidMethod(""))
    }

    func testJSONKeepsMemberOrderAndNumbersAsWritten() throws {
        let value = try JSONParser.parse(#"{"z": 1.50, "a": [1e3, -0], "s": "x"}"#)
        XCTAssertEqual(value.jsonText, #"{"z":1.50,"a":[1e3,-0],"s":"x"}"#)
        XCTAssertEqual(value["s"]?.stringValue, "x")
    }
}
