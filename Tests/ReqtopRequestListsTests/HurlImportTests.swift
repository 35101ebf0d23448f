import Foundation
@testable import ReqtopRequestLists
import XCTest

/// The Hurl reader: what each entry sends, its checks, located errors, and real files.
final class HurlImportTests: XCTestCase {
    private func parse(_ text: String) throws -> RequestList {
        try RequestListLoader.load(text: text, path: "t.hurl", format: .hurl)
    }

    private func resolve(_ list: RequestList, _ index: Int, variables: [String: String] = [:]) throws -> HTTPRequest {
        try RequestResolver(list: list, variables: VariableContext(commandLine: variables)).resolve(index)
    }

    /// Credentials read as separate fields keep their spaces and colons, literal or from variables
    /// (Hurl's [BasicAuth] and `user:` option, and Postman's basic auth, went through the `.http`
    /// reading of `Basic user password`, which splits at the first space).
    func testBasicCredentialsWithSpacesStayOnePair() throws {
        func authorization(_ request: HTTPRequest) -> String? { request.headers.value(for: "Authorization") }
        func encoded(_ pair: String) -> String { "Basic " + Data(pair.utf8).base64EncodedString() }
        let hurl = try parse("""
            GET https://example.org/a
            [BasicAuth]
            john doe: b:c d

            GET https://example.org/b
            [Options]
            user: jane roe:p w

            GET https://example.org/c
            [BasicAuth]
            jim: {{password}}
            """)
        XCTAssertEqual(authorization(try resolve(hurl, 0)), encoded("john doe:b:c d"))
        XCTAssertEqual(authorization(try resolve(hurl, 1)), encoded("jane roe:p w"))
        XCTAssertEqual(authorization(try resolve(hurl, 2, variables: ["password": "c d:e"])), encoded("jim:c d:e"))
        let postman = try RequestListLoader.load(text: #"""
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "r", "request": {"method": "GET", "url": "https://example.org/",
               "auth": {"type": "basic", "basic": [{"key": "username", "value": "john doe"}, {"key": "password", "value": "b c"}]}}}]}
            """#, path: "c.postman_collection.json", format: .postman)
        XCTAssertEqual(authorization(try resolve(postman, 0)), encoded("john doe:b c"))
        // The .http forms are unchanged: `Basic user password` and `Basic user:password`.
        let http = try RequestListLoader.load(text: "GET https://example.org/\nAuthorization: Basic u p\n\n###\nGET https://example.org/\nAuthorization: Basic u:p q\n",
                                              path: "a.http", format: .http)
        XCTAssertEqual(authorization(try resolve(http, 0)), encoded("u:p"))
        XCTAssertEqual(authorization(try resolve(http, 1)), encoded("u:p:q"))
    }

    func testSectionsBecomeTheRequestHurlSends() throws {
        let list = try parse("""
            # comment
            POST https://example.org/api?x=1   # trailing comment
            X-Tag: a\\#b
            [Query]
            q: a b
            [Cookies]
            s: 1
            t: 2
            [BasicAuth]
            bob: secret
            [Options]
            location: true
            insecure: true
            max-time: 1500ms
            variable: who=ada
            [Form]
            name: {{who}}
            """)
        XCTAssertEqual(list.specs.count, 1)
        let request = try resolve(list, 0)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.url.absoluteString, "https://example.org/api?x=1&q=a%20b")
        XCTAssertEqual(request.headers.map(\.name), ["X-Tag", "Authorization", "Cookie", "Content-Type"])
        XCTAssertEqual(request.headers[0].value, "a#b")
        XCTAssertEqual(request.headers[1].value, "Basic " + Data("bob:secret".utf8).base64EncodedString())
        XCTAssertEqual(request.headers[2].value, "s=1; t=2")
        XCTAssertEqual(request.headers[3].value, "application/x-www-form-urlencoded")
        XCTAssertEqual(request.body.data.map { String(decoding: $0, as: UTF8.self) }, "name=ada")
        XCTAssertEqual(request.options.followRedirects, true)
        XCTAssertEqual(request.options.insecure, true)
        XCTAssertEqual(request.options.timeout, 1.5)
    }

    func testBodiesOfEveryKind() throws {
        let list = try parse("""
            POST https://example.org/json
            {
              "a": [1, {"b": "}"}]
            }

            POST https://example.org/multi
            ```
            line 1
            line 2
            ```

            POST https://example.org/one
            `x\\ty`

            POST https://example.org/b64
            base64,aGVs
            bG8=;

            POST https://example.org/hex
            hex,00ff;

            POST https://example.org/xml
            <?xml version="1.0"?>
            <a><b/></a>

            POST https://example.org/gql
            ```graphql
            { me { id } }
            ```

            POST https://example.org/scalar
            "text"
            """)
        let bodies = try list.specs.indices.map { try resolve(list, $0) }
        XCTAssertEqual(bodies.map { $0.body.data.map { String(decoding: $0, as: UTF8.self) } ?? "" }, [
            "{\n  \"a\": [1, {\"b\": \"}\"}]\n}", "line 1\nline 2\n", "x\ty", "hello", "\u{0}\u{FF}".unicodeScalars.map { String($0) }.joined() == "" ? "" : String(decoding: Data([0, 255]), as: UTF8.self),
            "<?xml version=\"1.0\"?>\n<a><b/></a>", #"{"query":"{ me { id } }\n"}"#, "\"text\"",
        ])
        XCTAssertEqual(bodies[4].body.data, Data([0, 255]))
        XCTAssertEqual(bodies.map { $0.headers.value(for: "Content-Type") }, [
            "application/json", nil, nil, nil, nil, "application/xml", "application/json", "application/json",
        ])
    }

    func testTheResponseSectionBecomesChecks() throws {
        let list = try parse("""
            GET https://example.org/
            HTTP/2 201
            Location: /x
            [Captures]
            id: jsonpath "$.items[0].id" toInt
            csrf: header "Set-Cookie" regex /csrf=([^;]+)/
            [Asserts]
            jsonpath "$.items" count >= 2 # at least two
            body not contains "error"
            """)
        let checks = try XCTUnwrap(list.specs[0].checks)
        XCTAssertEqual(checks.statusLine?.version, "2")
        XCTAssertEqual(checks.statusLine?.status, 201)
        XCTAssertEqual(checks.headers.map(\.name), ["Location"])
        XCTAssertEqual(checks.capturedNames, ["id", "csrf"])
        XCTAssertEqual(checks.captures[0].filters, [.toInt])
        XCTAssertEqual(checks.asserts.map(\.text), [#"jsonpath "$.items" count >= 2"#, #"body not contains "error""#])
        XCTAssertEqual(checks.asserts[0].predicate, CheckPredicate(negated: false, op: .greaterOrEqual, operand: .value(.integer(2))))
        XCTAssertEqual(checks.asserts[1].location.line, 9)
    }

    /// Checks evaluated on a response without a network: Hurl's types and predicates.
    func testChecksEvaluateWithHurlsTypes() throws {
        let list = try parse("""
            GET https://example.org/
            HTTP 200
            [Captures]
            price: jsonpath "$.price"
            [Asserts]
            jsonpath "$.price" == 10.0
            jsonpath "$.price" isFloat
            jsonpath "$.n" == 10
            jsonpath "$.n" isInteger
            jsonpath "$.tags[*]" count == 2
            jsonpath "$.tags[-1]" == "b"
            jsonpath "$.items[?(@.ok == true)].id" includes 2
            jsonpath "$.when" isIsoDate
            cookie "sid[HttpOnly]" exists
            cookie "sid" == "abc"
            header "X-Many" count == 2
            bytes startsWith hex,7b;
            body matches /"n": ?10/
            jsonpath "$.n" > {{limit}}
            jsonpath "$.missing" == null
            """)
        let body = Data(#"{"price": 10.0, "n": 10, "tags": ["a", "b"], "items": [{"id": 1, "ok": false}, {"id": 2, "ok": true}], "when": "2024-01-02T03:04:05Z"}"#.utf8)
        let response = CheckedResponse(status: 200, httpVersion: "1.1", url: "https://example.org/",
                                       headers: [HTTPHeader(name: "Set-Cookie", value: "sid=abc; Path=/; HttpOnly"), HTTPHeader(name: "X-Many", value: "1"),
                                                 HTTPHeader(name: "X-Many", value: "2")], body: body)
        let checks = try XCTUnwrap(list.specs[0].checks)
        let substitute: (String) throws -> String = { $0.replacingOccurrences(of: "{{limit}}", with: "9") }
        let captured = checks.capture(response, substitute: substitute)
        XCTAssertNil(captured.failure)
        XCTAssertEqual(captured.values.map(\.1.text), ["10.0"])
        let results = checks.test(response, substitute: substitute)
        XCTAssertEqual(results.filter { !$0.passed }.map(\.name), [#"jsonpath "$.missing" == null (line 20)"#], "\(results.filter { !$0.passed })")
        XCTAssertEqual(results.last?.message, "actual: none, expected: == null <null>")
        XCTAssertEqual(results.count, 16)
    }

    func testMalformedFilesAreLocated() {
        let cases: [(String, String)] = [
            ("GET https://e.org\nHTTP 2000\n", "t.hurl:2:6: error: expected a status after HTTP"),
            ("GET https://e.org\nHTTP 200\n[Asserts]\njsonpath \"$.a\" equalz 1\n", "t.hurl:4:16: error: 'equalz' is not a Hurl predicate or filter"),
            ("GET https://e.org\nHTTP 200\n[Asserts]\njsonpath \"$.a[\" == 1\n", "t.hurl:4:1: error: expected"),
            ("POST https://e.org\n{\"a\": 1\n", "t.hurl:2:1: error: the JSON body is not closed"),
            ("POST https://e.org\n```\nnever closed\n", "t.hurl:2:1: error: the ``` multiline string is not closed"),
            ("just words\n", "t.hurl:1:1: error: expected a request line"),
            ("GET https://e.org\n[Captures]\nx: body\n", "t.hurl:2:1: error: [Captures] belongs to a response"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(text.debugDescription): \(error)")
            }
        }
    }

    /// Valid Hurl that reqtop does not evaluate refuses its entry only, located.
    func testUnsupportedPartsRefuseTheirEntryOnly() throws {
        let list = try parse("""
            GET https://example.org/a
            HTTP 200
            [Asserts]
            xpath "//h1" exists

            GET https://example.org/b
            """)
        XCTAssertEqual(list.specs.count, 2)
        let refusal = try XCTUnwrap(list.specs[0].refusal)
        XCTAssertEqual(refusal.location, SourceLocation(file: "t.hurl", line: 4, column: 1))
        XCTAssertTrue(refusal.message.contains("xpath"), refusal.message)
        XCTAssertNil(list.specs[1].refusal)
        let resolver = RequestResolver(list: list)
        XCTAssertNoThrow(try resolver.validate(), "the rest of the list is valid")
        XCTAssertThrowsError(try resolver.resolve(0))
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "https://example.org/b")
    }

    func testTheFormatIsToldFromTheContent() {
        XCTAssertEqual(RequestListFormat.sniff("GET https://e.org\nHTTP 200\n"), .hurl)
        XCTAssertEqual(RequestListFormat.sniff("GET https://e.org\n[Asserts]\n"), .hurl)
        XCTAssertEqual(RequestListFormat.sniff("GET https://e.org\nAccept: */*\n"), .http)
        XCTAssertEqual(RequestListFormat.sniff("### a\nGET https://e.org\n\n> {% client.test('x', () => {}) %}\n"), .http)
    }

    func testJSONPathSelectsAsRFC9535Says() throws {
        let document = try JSONParser.parse(#"{"store": {"book": [{"price": 8, "t": "a"}, {"price": 22, "t": "b"}, {"price": 9}], "bike": {"price": 19}}}"#)
        func eval(_ path: String) throws -> CheckValue? { try JSONPathQuery(path).evaluate(document) }
        XCTAssertEqual(try eval("$.store.book[1].t"), .string("b"))
        XCTAssertEqual(try eval("$['store']['bike']['price']"), .integer(19))
        XCTAssertEqual(try eval("$.store.book[-1].price"), .integer(9))
        XCTAssertNil(try eval("$.store.book[5]"))
        XCTAssertEqual(try eval("$.store.book[*].price"), .list([.integer(8), .integer(22), .integer(9)]))
        XCTAssertEqual(try eval("$..price"), .list([.integer(8), .integer(22), .integer(9), .integer(19)]))
        XCTAssertEqual(try eval("$.store.book[0:2].t"), .list([.string("a"), .string("b")]))
        XCTAssertEqual(try eval("$.store.book[?(@.price < 10)].price"), .list([.integer(8), .integer(9)]))
        XCTAssertEqual(try eval("$.store.book[?@.t && @.price > 10].t"), .list([.string("b")]))
        XCTAssertEqual(try eval("$.store.book[0,2].price"), .list([.integer(8), .integer(9)]))
        XCTAssertThrowsError(try JSONPathQuery("store.book"))
        XCTAssertThrowsError(try JSONPathQuery("$.a["))
    }

    /// Real Hurl files from other projects (`Fixtures/Wild/hurl`, cited in its SOURCES.md): each
    /// reads, or is refused at a place, never a crash; the two written to be invalid are refused
    /// where they are.
    func testRealHurlFilesRead() throws {
        let folder = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild/hurl")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".hurl") }.sorted())
        XCTAssertGreaterThanOrEqual(files.count, 30)
        let invalid = ["hurl-mode__hurl-font-lock-test.hurl": 31, "language-hurl__status.codes.hurl": 1]
        var entries = 0
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file)
            do {
                let list = try RequestListLoader.load(path: path)
                XCTAssertNil(invalid[file], "\(file) is invalid Hurl but read")
                XCTAssertFalse(list.specs.isEmpty, file)
                entries += list.specs.count
            } catch {
                XCTAssertEqual(invalid[file], error.line, "\(file): \(error)")
            }
        }
        XCTAssertGreaterThan(entries, 200)
    }
}

/// The Bruno reader on real collections (`Fixtures/Wild/bruno`, cited in its SOURCES.md).
final class BrunoImportTests: XCTestCase {
    func testRealBrunoCollectionsRead() throws {
        let folder = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild/bruno")
        let collections = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThanOrEqual(collections.count, 15)
        var requests = 0
        for collection in collections {
            let list = try RequestListLoader.load(path: (folder as NSString).appendingPathComponent(collection))
            XCTAssertFalse(list.specs.isEmpty, collection)
            XCTAssertTrue(list.specs.allSatisfy { $0.location != nil && $0.name != nil }, collection)
            requests += list.specs.count
        }
        XCTAssertGreaterThanOrEqual(requests, 140)
    }

    /// As a collection of daniel-b92/bruno-vs-code-extension has them: meta's `tags` as a list over
    /// several lines (the whole collection was refused), and basic credentials with spaces (sent as
    /// `john:doe:b c` — the .http reading of `Basic john doe:b c`).
    func testTagListsAndBasicCredentialsWithSpaces() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-bru-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "{}".write(to: folder.appendingPathComponent("bruno.json"), atomically: true, encoding: .utf8)
        try """
            meta {
              name: Get page
              type: http
              seq: 1
              tags: [
                tag1
                other_tag2
              ]
            }

            get {
              url: http://example.org/
              auth: basic
            }

            auth:basic {
              username: john doe
              password: b c
            }
            """.write(to: folder.appendingPathComponent("a.bru"), atomically: true, encoding: .utf8)
        let list = try RequestListLoader.load(path: folder.path)
        XCTAssertEqual(list.specs.map(\.name), ["Get page"])
        let request = try RequestResolver(list: list).resolve(0)
        XCTAssertEqual(request.headers.value(for: "Authorization"), "Basic " + Data("john doe:b c".utf8).base64EncodedString())
    }

    func testMalformedBruFilesAreLocated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-bru-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "{}".write(to: folder.appendingPathComponent("bruno.json"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("a.bru")
        for (text, expected) in [("get {\n  url: http://e\n", "a.bru:1:1: error: the block get { is not closed"),
                                 ("meta {\n  name x\n}\n", "a.bru:2:3: error: expected 'key: value'"),
                                 ("meta {\n  tags: [\n    a\n}\n", "a.bru:2:3: error: the list tags: [ … ] is not closed"),
                                 ("  stray\n", "a.bru:1:1: error: expected a block")] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try RequestListLoader.load(path: file.path)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
