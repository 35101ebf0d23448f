import ReqtopRequestLists
import XCTest

final class HTTPFileSyntaxTests: XCTestCase {
    func testSeparatorsNamesCommentsAndOptionalMethod() throws {
        let list = try Fixtures.load("http/separators-and-names.http")
        XCTAssertEqual(list.format, .http)
        XCTAssertEqual(list.specs.map(\.name), ["List users", "create", "Fetch without a method"])
        XCTAssertEqual(list.specs.map(\.method), ["GET", "POST", "GET"])
        XCTAssertEqual(list.specs[0].url, "https://api.example.org/users")
        XCTAssertEqual(list.specs[0].headers, [HTTPHeader(name: "Accept", value: "application/json")])
        XCTAssertNil(list.specs[0].body)
        XCTAssertEqual(list.specs[1].body, .text("{\"name\": \"Ada\"}"))
        XCTAssertEqual(list.specs[2].url, "https://api.example.org/health")
        XCTAssertEqual(list.specs[0].location?.line, 5)
        XCTAssertEqual(list.specs[1].location?.line, 10)
    }

    func testQueryContinuationLinesAreAppendedToTheURL() throws {
        let list = try Fixtures.load("http/query-continuation.http")
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertEqual(list.specs[0].url, "https://api.example.org/search?q=swift&page=2&limit=10")
        XCTAssertEqual(list.specs[0].headers.map(\.name), ["Accept"])
    }

    /// A URL with spaces, as VS Code REST Client and httpyac read it (AxonIQ's workshop list has
    /// `?location=New York&…`): up to the end of the line or a last `HTTP/…` word, spaces sent as %20.
    func testAURLWithSpacesIsReadToTheEndOfTheLineWithAWarning() throws {
        let list = try HTTPFileParser.parse(text: """
            POST http://127.0.0.1:9/returnBike?location=New York&bikeId=a1
            ###
            GET http://127.0.0.1:9/a b\tc  HTTP/1.1  
            ###
            GET http://127.0.0.1:9/{{ path }}
            ###
            GET http://127.0.0.1:9/auth
                ?client_id=x
                &scope=openid profile
                &size={{ size }}
            """, path: "spaces.http")
        XCTAssertEqual(list.specs.map(\.url), ["http://127.0.0.1:9/returnBike?location=New York&bikeId=a1",
                                               "http://127.0.0.1:9/a b\tc", "http://127.0.0.1:9/{{ path }}",
                                               "http://127.0.0.1:9/auth?client_id=x&scope=openid profile&size={{ size }}"])
        XCTAssertEqual(list.warnings.map { [$0.location?.line, $0.location?.column] }, [[1, 49], [3, 26], [9, 18]],
                       "a continuation line of the URL too (not a blank inside {{ }})")
        XCTAssertTrue(list.warnings.allSatisfy { $0.message.contains("percent-encoded (%20)") }, "\(list.warnings)")
        let sent = try RequestResolver(list: list).resolve(0)
        XCTAssertEqual(sent.url.absoluteString, "http://127.0.0.1:9/returnBike?location=New%20York&bikeId=a1")
        XCTAssertThrowsError(try HTTPFileParser.parse(text: "GET http://127.0.0.1:9/a HTTP/1.1 extra", path: "x.http"),
                             "after the HTTP version nothing may follow")
    }

    /// Text after a URL is read as more URL only when the URL is surely one: a comment after it, or a
    /// line of prose with a colon, is still an error at the text.
    func testACommentOrProseAfterTheURLIsStillAnError() {
        for (text, column) in [("GET https://api.example.org/users # list users", 35), ("GET https://api.example.org/users // all", 35),
                               ("Note: see the docs", 7)] {
            XCTAssertThrowsError(try HTTPFileParser.parse(text: text, path: "c.http"), text) { error in
                XCTAssertEqual((error as? RequestListError)?.column, column, text)
            }
        }
    }

    func testHeadersEndAtBlankLineAndBodyKeepsInnerBlankLines() throws {
        let list = try Fixtures.load("http/headers-and-body.http")
        XCTAssertEqual(list.specs.count, 2)
        XCTAssertEqual(list.specs[0].headers.map(\.name), ["Content-Type", "X-Trace-Id"])
        XCTAssertEqual(list.specs[0].body, .text("{\n  \"name\": \"widget\",\n\n  \"tags\": [\"a\", \"b\"]\n}"))
        XCTAssertEqual(list.specs[1].method, "DELETE")
        XCTAssertNil(list.specs[1].body)
    }

    func testFileBodyIsResolvedRelativeToTheHTTPFile() throws {
        let list = try Fixtures.load("http/file-body.http")
        guard case let .file(path, directory)? = list.specs[0].body else { return XCTFail("expected a file body") }
        XCTAssertEqual(path, "./payload.json")
        XCTAssertEqual(directory, Fixtures.path("http"))
        let resolved = try RequestResolver(list: list).resolve(0)
        XCTAssertEqual(resolved.body.data, try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("http/payload.json"))))
    }

    func testDirectivesSetOptions() throws {
        let list = try Fixtures.load("http/options.http")
        XCTAssertEqual(list.specs[0].name, "slow")
        XCTAssertEqual(list.specs[0].options.followRedirects, false)
        XCTAssertEqual(list.specs[0].options.timeout, 2.5)
        XCTAssertEqual(try RequestResolver(list: list).resolve(0).options.timeout, 2.5)
    }

    /// A handler is kept for the runner (which runs it), located at its first character so that its
    /// errors point into the file; it is not part of the body, and nothing is said about it.
    func testAResponseHandlerIsKeptOutOfTheBodyAndLocated() throws {
        let list = try Fixtures.load("http/handler-script.http")
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertEqual(list.specs[0].body, .text(#"{"user": "ada"}"#), "the handler is not part of the body")
        let script = try XCTUnwrap(list.specs[0].scripts.first)
        XCTAssertEqual(script.source.trimmingCharacters(in: .whitespacesAndNewlines), #"client.global.set("token", response.body.token);"#)
        XCTAssertEqual(script.location.line, 5, "the line of `> {%`, where the script's text starts")
        XCTAssertFalse(script.inFile)
        XCTAssertEqual(list.warnings, [])
    }

    /// `> path` names a handler file whatever its extension (`> ./open.gif`, `> scripts/after-login`):
    /// never sent as the body. A quoted line of prose in a body (`> see the notes`, `> ok`) stays body.
    func testAHandlerFileOfAnyNameIsNotTheBody() throws {
        let text = """
            GET http://x.example/a

            > ./open.gif

            ###
            POST http://x.example/notes
            Content-Type: text/markdown

            > see the notes
            > ok
            end

            > scripts/after-login
            """
        let list = try RequestListLoader.load(text: text, path: "/tmp/handlers.http", format: .http)
        XCTAssertNil(list.specs[0].body)
        XCTAssertEqual(list.specs[0].scripts.map(\.source), ["./open.gif"])
        XCTAssertEqual(list.specs[1].body, .text("> see the notes\n> ok\nend"))
        XCTAssertEqual(list.specs[1].scripts.map(\.source), ["scripts/after-login"])
        XCTAssertEqual(list.specs.flatMap(\.scripts).map(\.inFile), [true, true])
        XCTAssertEqual(list.warnings, [], "handlers run; nothing is skipped")
    }

    func testOutputRedirectionIsSkippedWithAWarningNamingItsLine() throws {
        let list = try Fixtures.load("http/redirect-output.http")
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertEqual(list.warnings.map { $0.location?.line }, [4])
        XCTAssertTrue(list.warnings.first?.message.contains("'>>' skipped") == true, "\(list.warnings)")
    }

    /// One warning per repeated name, however often it repeats.
    func testARepeatedNameWarnsOnce() throws {
        let text = (1...5).map { "# @name step\nGET http://x.example/\($0)\n" }.joined(separator: "\n###\n")
        XCTAssertEqual(try HTTPFileParser.parse(text: text, path: "many.http").warnings.count, 1)
    }

    func testADuplicateRequestNameIsAWarning() throws {
        let text = "# @name a\nGET http://x.example/1\n\n###\n# @name a\nGET http://x.example/2\n"
        let list = try HTTPFileParser.parse(text: text, path: "dup.http")
        XCTAssertEqual(list.specs.map(\.name), ["a", "a"])
        XCTAssertEqual(list.warnings.map { $0.location?.line }, [6])
        XCTAssertTrue(list.warnings.first?.message.contains("first on line 2") == true, "\(list.warnings)")
    }

    func testUnknownDirectiveIsAWarning() throws {
        let list = try HTTPFileParser.parse(text: "# @no-cookie-jar\nGET http://x.example/\n", path: "w.http")
        XCTAssertEqual(list.warnings.count, 1)
        XCTAssertEqual(list.warnings.first?.location?.line, 1)
    }

    func testAnyMethodTokenIsKeptExactlyAsWritten() throws {
        let list = try HTTPFileParser.parse(text: "post http://x.example/a\n###\nPROPFIND http://x.example/b\n###\nwHat http://x.example/c\n",
                                            path: "l.http")
        XCTAssertEqual(list.specs.map(\.method), ["post", "PROPFIND", "wHat"])
    }

    func testRequestLineWithTextAfterASpaceWarnsAtTheText() throws {
        let list = try HTTPFileParser.parse(text: "GET http://x.example/a b\n", path: "g.http")
        XCTAssertEqual(list.warnings.first?.location?.column, 24)
    }

    func testCRLFLineEndingsAreAccepted() throws {
        let text = "POST http://x.example/a\r\nContent-Type: text/plain\r\n\r\nhello\r\n"
        let list = try HTTPFileParser.parse(text: text, path: "crlf.http")
        XCTAssertEqual(list.specs[0].headers, [HTTPHeader(name: "Content-Type", value: "text/plain")])
        XCTAssertEqual(list.specs[0].body, .text("hello"))
    }

    /// Lines are split on the bytes: `\n` and `\r\n` end a line, a lone `\r` inside a line stays,
    /// an unterminated last line counts, and line numbers follow.
    func testLineEndingsAndLineNumbersOnTheBytes() throws {
        let text = "GET http://x.example/a\r\r\nX-A: 1\rstill\n\nbody\n###\n  \t GET http://x.example/b"
        let list = try HTTPFileParser.parse(text: text, path: "ends.http")
        XCTAssertEqual(list.specs.count, 2)
        XCTAssertEqual(list.specs[0].url, "http://x.example/a")
        XCTAssertEqual(list.specs[0].headers, [HTTPHeader(name: "X-A", value: "1\rstill")])
        XCTAssertEqual(list.specs[0].body, .text("body"))
        XCTAssertEqual(list.specs[1].location?.line, 6)
        XCTAssertEqual(list.specs[1].location?.column, 5)
    }

    /// Columns count characters, not bytes, when the line is not ASCII.
    func testColumnsCountCharactersOnNonASCIILines() throws {
        XCTAssertEqual(try HTTPFileParser.parse(text: "GET http://x.example/ä b\n", path: "u.http").warnings.first?.location?.column, 24)
        XCTAssertEqual(try HTTPFileParser.parse(text: "GET http://x.example/{{ a b }} c\n", path: "v.http").warnings.first?.location?.column, 32)
        XCTAssertThrowsError(try HTTPFileParser.parse(text: "GET http://x.example/\nX-Ü: ü{{}}\n", path: "w.http")) { error in
            XCTAssertEqual((error as? RequestListError)?.line, 2)
            XCTAssertEqual((error as? RequestListError)?.column, 7, "the '{{' of a header value, counted in characters")
        }
    }
}
