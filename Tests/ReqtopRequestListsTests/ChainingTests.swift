import Foundation
import ReqtopRequestLists
import XCTest

final class ChainingTests: XCTestCase {
    func testDependenciesAreTheReferencedRequests() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        try resolver.validate()
        XCTAssertEqual(resolver.dependencies(of: 0), [])
        XCTAssertEqual(resolver.dependencies(of: 1), ["login"])
        XCTAssertEqual(resolver.dependencies(of: 2), ["profile"])
    }

    func testReferencesReadBodyJSONPathStatusAndHeadersCaseInsensitively() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        resolver.record(response: jsonResponse(#"{"token": "t-1", "user": {"id": 42}}"#, status: 201,
                                               headers: [HTTPHeader(name: "Location", value: "/users/42")]),
                        forRequestNamed: "login")
        let profile = try resolver.resolve(1)
        XCTAssertEqual(profile.url.absoluteString, "https://api.example.org/users/42")
        XCTAssertEqual(profile.header(named: "Authorization"), "Bearer t-1")
        XCTAssertEqual(profile.header(named: "X-Login-Status"), "201")
        XCTAssertEqual(profile.header(named: "X-Next"), "/users/42")

        resolver.record(response: jsonResponse(#"{"items": [{"id": "a"}, {"id": "b"}]}"#), forRequestNamed: "profile")
        XCTAssertEqual(try resolver.resolve(2).url.path, "/items/b")
    }

    /// kulala's `{{login.response.cookies.token.value}}`: the value the response's last `Set-Cookie`
    /// of that name sets; a cookie it does not set fails that request; other attributes are refused.
    func testACookieTheResponseSetIsReadByKulalasReference() throws {
        let list = try HTTPFileParser.parse(text: """
            # @name login
            POST http://127.0.0.1:9/login

            ###
            GET http://127.0.0.1:9/me?t={{login.response.cookies.token.value}}
            """, path: "cookies.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        XCTAssertEqual(resolver.dependencies(of: 1), ["login"])
        let headers = [HTTPHeader(name: "Set-Cookie", value: "tokenizer=no; Path=/"), HTTPHeader(name: "set-cookie", value: " token = old ; HttpOnly"),
                       HTTPHeader(name: "Set-Cookie", value: "token=abc; Path=/; Secure")]
        resolver.record(response: RecordedResponse(status: 200, headers: headers, body: Data()), forRequestAt: 0)
        XCTAssertEqual(try resolver.resolve(1).url.absoluteString, "http://127.0.0.1:9/me?t=abc")
        resolver.record(response: RecordedResponse(status: 200, headers: [], body: Data()), forRequestAt: 0)
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            XCTAssertEqual((error as? RequestListError)?.message.contains("sets no cookie 'token'"), true, "\(error)")
        }
        let domain = try HTTPFileParser.parse(text: "# @name a\nGET http://h.test/\n\n###\nGET http://h.test/{{a.response.cookies.token.domain}}\n",
                                              path: "domain.http")
        XCTAssertThrowsError(try RequestResolver(list: domain).validate()) { error in
            XCTAssertEqual((error as? RequestListError)?.message.contains("reqtop reads the value only"), true, "\(error)")
        }
    }

    /// REST Client's JSONPath library reads a path without `$` from the root (DEFRA's and other
    /// authors' lists write `{{token.response.body.access_token}}`).
    func testABodyPathWithoutTheDollarIsReadFromTheRoot() throws {
        let list = try HTTPFileParser.parse(text: """
            # @name token
            POST http://127.0.0.1:9/token

            ###
            # @name list
            GET http://127.0.0.1:9/items/{{token.response.body.items[1].id}}
            Authorization: Bearer {{token.response.body.access_token}}
            X-Same: {{token.response.body.$.access_token}}

            ###
            GET http://127.0.0.1:9/second/{{list.response.body.[1]}}
            """, path: "chain.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        XCTAssertEqual(resolver.dependencies(of: 1), ["token"])
        resolver.record(response: jsonResponse(#"{"access_token": "t-9", "items": [{"id": "a"}, {"id": "b"}]}"#), forRequestNamed: "token")
        let request = try resolver.resolve(1)
        XCTAssertEqual(request.url.path, "/items/b")
        XCTAssertEqual(request.header(named: "Authorization"), "Bearer t-9")
        XCTAssertEqual(request.header(named: "X-Same"), "t-9")
        resolver.record(response: jsonResponse(#"["x", "y"]"#), forRequestNamed: "list")
        XCTAssertEqual(try resolver.resolve(2).url.path, "/second/y")
    }

    /// httpyac's `{{hunt.id}}` (the response of request `hunt`) is not reqtop's syntax: the error says
    /// what to write instead, not "define a variable".
    func testHttpyacResponseShorthandGetsAnErrorThatSaysWhatToWrite() throws {
        let list = try HTTPFileParser.parse(text: """
            # @name hunt
            POST http://127.0.0.1:9/hunts

            ###
            GET http://127.0.0.1:9/hunts/{{hunt.id}}
            """, path: "short.http")
        XCTAssertThrowsError(try RequestResolver(list: list).validate()) { error in
            let e = error as? RequestListError
            XCTAssertEqual(e?.line, 5)
            XCTAssertTrue(e?.message.contains("{{hunt.response.body.$.id}}") == true, "\(error)")
        }
    }

    /// A name used twice (jarrettv/ValHelp's list repeats `# @name huntplayer`): a reference reads the
    /// nearest request of that name before it, as httpyac and VS Code REST Client read the latest
    /// response of the name; a reference before every request of the name reads the first.
    func testAReferenceReadsTheNearestEarlierRequestOfARepeatedName() throws {
        let list = try HTTPFileParser.parse(text: """
            GET http://127.0.0.1:9/early/{{player.response.body.$.id}}

            ###
            # @name player
            POST http://127.0.0.1:9/players

            ###
            GET http://127.0.0.1:9/first/{{player.response.body.$.id}}

            ###
            # @name player
            POST http://127.0.0.1:9/players/{{player.response.body.$.id}}

            ###
            GET http://127.0.0.1:9/second/{{player.response.body.$.id}}
            """, path: "repeat.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        XCTAssertEqual((0..<5).map { resolver.producers(of: $0) }, [[1], [], [1], [1], [3]])
        resolver.record(response: jsonResponse(#"{"id": "p1"}"#), forRequestAt: 1)
        XCTAssertEqual(try resolver.resolve(0).url.path, "/early/p1")
        XCTAssertEqual(try resolver.resolve(2).url.path, "/first/p1")
        XCTAssertEqual(try resolver.resolve(3).url.path, "/players/p1", "the second 'player' reads the first")
        XCTAssertThrowsError(try resolver.resolve(4), "the second 'player' has not completed") { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("has not completed") == true, "\(error)")
        }
        resolver.record(response: jsonResponse(#"{"id": "p2"}"#), forRequestAt: 3)
        XCTAssertEqual(try resolver.resolve(4).url.path, "/second/p2")
        XCTAssertEqual(try resolver.resolve(2).url.path, "/first/p1", "a later response of the name does not change an earlier reference")
    }

    /// A cycle through a repeated name is found, and names the requests by where they are.
    func testACycleThroughARepeatedNameIsFound() throws {
        let list = try HTTPFileParser.parse(text: """
            # @name x
            GET http://127.0.0.1:9/a/{{y.response.status}}

            ###
            # @name y
            GET http://127.0.0.1:9/b/{{x.response.status}}

            ###
            # @name x
            GET http://127.0.0.1:9/c
            """, path: "cycle.http")
        XCTAssertThrowsError(try RequestResolver(list: list).validate()) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("cycle") == true, "\(error)")
        }
    }

    /// A file variable that reads a response is read for the request that uses it: requests on either
    /// side of the name's second request read different responses.
    func testAFileVariableReadsTheNearestRequestBeforeTheRequestThatUsesIt() throws {
        let list = try HTTPFileParser.parse(text: """
            @who = {{login.response.body.$.user}}

            # @name login
            POST http://127.0.0.1:9/login

            ###
            GET http://127.0.0.1:9/first/{{who}}

            ###
            # @name login
            POST http://127.0.0.1:9/login

            ###
            GET http://127.0.0.1:9/second/{{who}}
            """, path: "vars.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        XCTAssertEqual([1, 3].map { resolver.producers(of: $0) }, [[0], [2]])
        resolver.record(response: jsonResponse(#"{"user": "ada"}"#), forRequestAt: 0)
        resolver.record(response: jsonResponse(#"{"user": "bob"}"#), forRequestAt: 2)
        XCTAssertEqual(try resolver.resolve(1).url.path, "/first/ada")
        XCTAssertEqual(try resolver.resolve(3).url.path, "/second/bob")
    }

    /// A `<@` body file (variables substituted) may use a response: the request depends on it — the
    /// list validates, and the body is resolved once the response is there.
    func testAResponseUsedInsideASubstitutedBodyFileIsADependency() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"token": "{{login.response.body.$.token}}"}"#.utf8).write(to: directory.appendingPathComponent("body.json"))
        let path = directory.appendingPathComponent("list.http").path
        try Data("""
            # @name login
            POST http://127.0.0.1:9/login

            ###
            POST http://127.0.0.1:9/me
            Content-Type: application/json

            <@ ./body.json
            """.utf8).write(to: URL(fileURLWithPath: path))
        let resolver = RequestResolver(list: try RequestListLoader.load(path: path))
        try resolver.validate()
        XCTAssertEqual(resolver.dependencies(of: 1), ["login"])
        XCTAssertEqual(resolver.requestsWithProducers(), [1: [0]])
        resolver.record(response: jsonResponse(#"{"token": "t-1"}"#), forRequestAt: 0)
        XCTAssertEqual(String(decoding: try resolver.resolve(1).body.data ?? Data(), as: UTF8.self), #"{"token": "t-1"}"#)
    }

    func testDependentOfAFailedRequestFailsWithTheReason() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        resolver.recordFailure(ofRequestNamed: "login", reason: "connection refused")
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            let e = error as? RequestListError
            XCTAssertTrue(e?.message.contains("'login'") == true && e?.message.contains("connection refused") == true, "\(error)")
            XCTAssertEqual(e?.line, 9)
        }
    }

    func testDependentOfAnUnfinishedRequestIsNotResolved() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("has not completed") == true, "\(error)")
        }
    }

    func testMissingJSONPathValueIsAClearError() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        resolver.record(response: jsonResponse(#"{"user": {}}"#), forRequestNamed: "login")
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("$.user.id") == true, "\(error)")
        }
    }

    func testReferenceToAnUnknownRequestFailsValidation() throws {
        let list = try HTTPFileParser.parse(text: "GET http://x.example/{{nobody.response.status}}\n", path: "r.http")
        XCTAssertThrowsError(try RequestResolver(list: list).validate()) { error in
            XCTAssertEqual((error as? RequestListError)?.column, 22)
        }
    }

    func testCyclicReferencesFailValidation() throws {
        let text = "# @name a\nGET http://x.example/{{b.response.status}}\n\n###\n# @name b\nGET http://x.example/{{a.response.status}}\n"
        XCTAssertThrowsError(try RequestResolver(list: HTTPFileParser.parse(text: text, path: "cycle.http")).validate()) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("cycle") == true, "\(error)")
        }
    }

    func testJSONPathSubset() throws {
        let value = try XCTUnwrap(try? JSONPath("$.a.b[0]['c d']").evaluate(
            JSONValue.object([("a", .object([("b", .array([.object([("c d", .number("7"))])]))]))])))
        XCTAssertEqual(value, .number("7"))
        XCTAssertThrowsError(try JSONPath("a.b"))
        XCTAssertThrowsError(try JSONPath("$.a[?(@.x)]"))
    }

    func testRecordingFromManyThreadsIsSafe() throws {
        let resolver = RequestResolver(list: try Fixtures.load("http/chaining.http"))
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            resolver.record(response: jsonResponse(#"{"token": "t\#(i)", "user": {"id": \#(i)}}"#,
                                                   headers: [HTTPHeader(name: "Location", value: "/u/\(i)")]),
                            forRequestNamed: "login")
            _ = try? resolver.resolve(1)
        }
        XCTAssertNoThrow(try resolver.resolve(1))
    }
}
