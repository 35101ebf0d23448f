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
