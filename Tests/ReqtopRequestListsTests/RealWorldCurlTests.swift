import Foundation
import ReqtopRequestLists
import XCTest

/// curl command lines as people write them, read as curl 7.88 would send them.
final class RealWorldCurlTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func load(_ text: String) throws -> (RequestList, [HTTPRequest]) {
        let path = directory.appendingPathComponent("commands.curl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let list = try RequestListLoader.load(path: path)
        let resolver = RequestResolver(list: list)
        return (list, try list.specs.indices.map { try resolver.resolve($0) })
    }

    private func file(_ name: String, _ data: Data) throws {
        try data.write(to: directory.appendingPathComponent(name))
    }

    private func body(_ request: HTTPRequest) -> String { String(decoding: request.body.data ?? Data(), as: UTF8.self) }

    func testFormFieldsAndFilesMakeAMultipartPOST() throws {
        try file("a.txt", Data("file text".utf8))
        let (_, requests) = try load(#"curl -F name=ada -F 'doc=@a.txt;type=text/markdown' -F 'note=<a.txt' --form-string 'raw=@literal' https://a.test/up"#)
        let request = requests[0]
        XCTAssertEqual(request.method, "POST")
        let type = try XCTUnwrap(request.header(named: "Content-Type"))
        XCTAssertTrue(type.hasPrefix("multipart/form-data; boundary="), type)
        let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
        XCTAssertEqual(body(request), """
            --\(boundary)\r\nContent-Disposition: form-data; name="name"\r\n\r\nada\r\n\
            --\(boundary)\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\nContent-Type: text/markdown\r\n\r\nfile text\r\n\
            --\(boundary)\r\nContent-Disposition: form-data; name="note"\r\n\r\nfile text\r\n\
            --\(boundary)\r\nContent-Disposition: form-data; name="raw"\r\n\r\n@literal\r\n--\(boundary)--\r\n
            """)
    }

    func testURLQueryAndGetAddToTheQueryInsteadOfMakingRequests() throws {
        let (list, requests) = try load("curl --url-query foo=bar --url-query 'q=a b' --url-query +raw=%41 https://a.test/s\ncurl -G -d x=1 --data-urlencode 'y=a b' https://a.test/g?z=0\n")
        XCTAssertEqual(list.specs.count, 2, "an option's value is never a URL")
        XCTAssertEqual(requests[0].url.absoluteString, "https://a.test/s?foo=bar&q=a+b&raw=%41")
        XCTAssertEqual(requests[1].url.absoluteString, "https://a.test/g?z=0&x=1&y=a+b")
        XCTAssertEqual(requests[1].method, "GET")
    }

    func testRedirectionsHeredocsAndHerestringsAreStandardInput() throws {
        try file("body.xml", Data("<a>1</a>\n".utf8))
        let (list, requests) = try load("""
            curl -X POST --data-binary @- https://a.test/xml < body.xml
            curl -H 'Content-Type: application/json' --data-binary @- https://a.test/json <<EOF
            {"name": "$REQTOP_TEST_NAME"}
            EOF
            curl --data-binary @- https://a.test/here <<< 'hello'
            curl https://a.test/out > out.json 2>&1 | jq .
            """.replacingOccurrences(of: "$REQTOP_TEST_NAME", with: "${REQTOP_TEST_NAME}"))
        XCTAssertEqual(requests.map(\.url.absoluteString), ["https://a.test/xml", "https://a.test/json", "https://a.test/here", "https://a.test/out"],
                       "redirection targets are not requests")
        XCTAssertEqual(body(requests[0]), "<a>1</a>\n")
        XCTAssertEqual(body(requests[2]), "hello\n")
        XCTAssertTrue(list.warnings.contains { $0.message.contains("'jq'") }, "\(list.warnings)")
    }

    func testVariablesExpandFromTheEnvironmentWithAWarningWhenUnset() throws {
        setenv("REQTOP_CURL_TOKEN", "t0k", 1)
        unsetenv("REQTOP_CURL_MISSING")
        let (list, requests) = try load(#"curl -H "Authorization: Bearer $REQTOP_CURL_TOKEN" -H 'X-Literal: $REQTOP_CURL_TOKEN' "https://a.test/${REQTOP_CURL_MISSING}x""#)
        XCTAssertEqual(requests[0].header(named: "Authorization"), "Bearer t0k")
        XCTAssertEqual(requests[0].header(named: "X-Literal"), "$REQTOP_CURL_TOKEN", "single quotes do not expand")
        XCTAssertEqual(requests[0].url.absoluteString, "https://a.test/x")
        XCTAssertTrue(list.warnings.contains { $0.message.contains("$REQTOP_CURL_MISSING is set neither in the script nor in the environment") },
                      "\(list.warnings)")
    }

    /// A script's own assignments are used by the commands after them, as bash does (over the
    /// environment); `$(…)` outside a curl command skips that line, and a variable it sets is refused
    /// where a curl command uses it; an error after a variable expanded to nothing notes the warning.
    func testAScriptsOwnAssignmentsAreUsedByTheCommandsAfterThem() throws {
        setenv("REQTOP_CURL_BASE", "http://from-the-environment.test", 1)
        defer { unsetenv("REQTOP_CURL_BASE") }
        let (list, requests) = try load("""
            #!/bin/bash
            REQTOP_CURL_BASE=http://a.test
            DIR=normal; export API="$REQTOP_CURL_BASE/v1"
            SCRIPT_DIR=$(cd $(dirname "$0"); pwd -P)
            echo "`date`: sending"
            curl "$API/$DIR/x"
            TOKEN=abc curl "$REQTOP_CURL_BASE/y"
            DIR=other
            curl "$API/$DIR"
            """)
        XCTAssertEqual(requests.map(\.url.absoluteString), ["http://a.test/v1/normal/x", "http://a.test/y", "http://a.test/v1/other"])
        XCTAssertEqual(list.warnings.map(\.message), ["skipped 'echo': not a curl command",
                                                      "'TOKEN=abc' sets the environment of this command only, which reqtop does not pass on"])
        XCTAssertThrowsError(try load("D=$(date)\ncurl \"https://a.test/$D\"\n")) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.message, "$D is set at line 1 by a command substitution, which cannot be replayed: put the value itself")
            XCTAssertEqual(error?.line, 2)
        }
        let (_, exported) = try load("export -n ONE=1 TWO\ndeclare -x THREE=3\n$(true)\ncurl \"https://a.test/$ONE$THREE\"\n")
        XCTAssertEqual(exported.map(\.url.absoluteString), ["https://a.test/13"], "flags and bare names aside, the assignments apply")
        for text in ["curl --data-binary @- https://a.test/ <<< $(cat body.json)\n",
                     "curl --data-binary @- https://a.test/ <<EOF\n{\"at\": \"`date`\"}\nEOF\n"] {
            XCTAssertThrowsError(try load(text), text) { error in
                XCTAssertTrue((error as? RequestListError)?.message.contains("command substitution") == true, "\(error)")
            }
        }
        try file("a.zip", Data([1]))
        XCTAssertThrowsError(try load("curl https://a.test/up -F \"f=@$REQTOP_CURL_UNSET/a.zip\"\ncurl https://a.test/$REQTOP_CURL_OTHER\n")) { error in
            let notes = (error as? RequestListError)?.notes ?? []
            XCTAssertEqual(notes.count, 1, "only the failing command's own warning: \(notes)")
            XCTAssertTrue(notes.first?.contains("$REQTOP_CURL_UNSET is set neither in the script nor in the environment") == true, "\(notes)")
        }
    }

    func testCommandSubstitutionIsRefusedNamingTheConstruct() {
        for text in ["curl -H \"X-Date: `date`\" https://a.test/", "curl https://a.test/$(whoami)"] {
            XCTAssertThrowsError(try load(text)) { error in
                XCTAssertTrue((error as? RequestListError)?.message.contains("command substitution") == true, "\(error)")
            }
        }
    }

    func testDataFromAFileLosesNewlinesButBinaryDataKeepsThem() throws {
        try file("lines.txt", Data("a=1\r\nb=2\n".utf8))
        let (_, requests) = try load("curl -d @lines.txt https://a.test/d\ncurl --data-binary @lines.txt https://a.test/b\n")
        XCTAssertEqual(body(requests[0]), "a=1b=2")
        XCTAssertEqual(body(requests[1]), "a=1\r\nb=2\n")
    }

    func testCookieHeaderReplacesCookieStringAsCurlDoes() throws {
        let (list, requests) = try load("curl -H 'Cookie: a=1' -b 'b=2' https://a.test/c\ncurl -b 'b=2' https://a.test/d\n")
        XCTAssertEqual(requests[0].headers.values(for: "Cookie"), ["a=1"])
        XCTAssertEqual(requests[1].headers.values(for: "Cookie"), ["b=2"])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("-b b=2 is not sent") }, "\(list.warnings)")
    }

    /// Each -T goes with the URL in its place, as curl pairs them (the last one went with every URL,
    /// a file and an earlier -T lost without a word); -T with -d is refused, as curl refuses it.
    func testEachUploadGoesWithItsOwnURL() throws {
        try file("a.txt", Data("A".utf8))
        try file("b.jpg", Data("BB".utf8))
        let (list, requests) = try load("curl -T a.txt https://a.test/x/ -T b.jpg 'https://a.test/y/?p=1' https://a.test/z\ncurl -T a.txt -T b.jpg https://a.test/w/\n")
        XCTAssertEqual(requests.map(\.method), ["PUT", "PUT", "GET", "PUT"])
        XCTAssertEqual(requests.map(\.url.absoluteString), ["https://a.test/x/a.txt", "https://a.test/y/b.jpg?p=1", "https://a.test/z", "https://a.test/w/a.txt"])
        XCTAssertEqual(requests.map(\.body.data), [Data("A".utf8), Data("BB".utf8), nil, Data("A".utf8)])
        XCTAssertEqual(requests.map { $0.header(named: "Expect") }, ["100-continue", "100-continue", nil, "100-continue"])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("-T b.jpg has no URL of its own") }, "\(list.warnings)")
        XCTAssertThrowsError(try load("curl -H 'X: 1' -T a.txt -d x https://a.test/\n")) { error in
            let error = error as? RequestListError
            XCTAssertTrue(error?.message.contains("curl refuses -T (a PUT) with -d or -F") == true, "\(String(describing: error))")
            XCTAssertEqual(error?.column, 16)
        }
    }

    func testJSONUploadBearerRangeAndNext() throws {
        try file("up.bin", Data([1, 2, 3]))
        let (_, requests) = try load("""
            curl --json '{"a":1}' https://a.test/j
            curl -T up.bin https://a.test/files/
            curl --oauth2-bearer tok --range 0-99 https://a.test/r --next -X DELETE https://a.test/n
            """)
        XCTAssertEqual(requests[0].method, "POST")
        XCTAssertEqual(requests[0].header(named: "Content-Type"), "application/json")
        XCTAssertEqual(requests[0].header(named: "Accept"), "application/json")
        XCTAssertEqual(requests[1].method, "PUT")
        XCTAssertEqual(requests[1].url.absoluteString, "https://a.test/files/up.bin")
        XCTAssertEqual(requests[1].body.data, Data([1, 2, 3]))
        XCTAssertEqual(requests[2].header(named: "Authorization"), "Bearer tok")
        XCTAssertEqual(requests[2].header(named: "Range"), "bytes=0-99")
        XCTAssertEqual(requests[3].method, "DELETE")
        XCTAssertNil(requests[3].header(named: "Authorization"), "--next starts a new request with fresh options")
    }
}
