import Foundation
import ReqtopRequestLists
import XCTest

final class VariableTests: XCTestCase {
    func testFileVariablesMayReferenceOtherVariables() throws {
        let list = try Fixtures.load("http/file-variables.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        let me = try resolver.resolve(0)
        XCTAssertEqual(me.url.absoluteString, "https://api.example.org/v1/me")
        XCTAssertEqual(me.header(named: "authorization"), "Bearer secret-token")
        let note = try resolver.resolve(1)
        XCTAssertEqual(String(decoding: note.body.data ?? Data(), as: UTF8.self), "note for api.example.org")
    }

    func testVariablesThatDoubleEachOtherAreRefusedInsteadOfExpandingForMinutes() throws {
        // 701 bytes that once expanded to 2^30 characters (12 minutes, 2 GB and rising).
        var text = "@v0 = x\n"
        for level in 1...30 { text += "@v\(level) = {{v\(level - 1)}}{{v\(level - 1)}}\n" }
        text += "\nGET http://127.0.0.1:9/?q={{v30}}\n"
        let list = try RequestListLoader.load(text: text, path: "bomb.http", format: .http)
        let resolver = RequestResolver(list: list)
        XCTAssertThrowsError(try resolver.resolve(0)) { error in
            let message = (error as? RequestListError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("the expansion takes more than 100000 variable references"), message)
        }
    }

    func testCommandLineVariablesWinOverFileVariables() throws {
        let list = try Fixtures.load("http/file-variables.http")
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: ["host": "127.0.0.1:9"]))
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "https://127.0.0.1:9/v1/me")
    }

    func testEnvironmentMergesSharedPublicAndPrivateValues() throws {
        let values = try Environments.load(besides: Fixtures.path("env/api.http"), name: "dev")
        XCTAssertEqual(values["host"], "localhost:8080")
        XCTAssertEqual(values["token"], "private-dev-token", "private values override public ones")
        XCTAssertEqual(values["label"], "shared")
        XCTAssertEqual(values["retries"], "3")
    }

    func testSelectedEnvironmentResolvesRequestsAndCommandLineWins() throws {
        let path = Fixtures.path("env/api.http")
        let list = try RequestListLoader.load(path: path)
        let prod = try VariableContext.load(besides: path, environmentName: "prod")
        let request = try RequestResolver(list: list, variables: prod).resolve(0)
        XCTAssertEqual(request.url.absoluteString, "https://api.example.org/v1/me")
        XCTAssertEqual(request.header(named: "Authorization"), "Bearer public-prod-token")
        XCTAssertEqual(request.header(named: "X-Env"), "production")

        let dev = try VariableContext.load(besides: path, environmentName: "dev", commandLine: ["token": "cli"])
        XCTAssertEqual(try RequestResolver(list: list, variables: dev).resolve(0).header(named: "Authorization"), "Bearer cli")
    }

    /// Without `--env`, a variable the env file beside the list defines is unknown — and the error
    /// names the environments that define it.
    func testAnUnknownVariableNamesTheEnvironmentsThatDefineIt() throws {
        let path = Fixtures.path("env/api.http")
        XCTAssertThrowsError(try RequestResolver(list: try RequestListLoader.load(path: path)).validate()) { error in
            let message = (error as? RequestListError)?.message ?? ""
            XCTAssertTrue(message.contains("--env dev, --env prod"), message)
        }
    }

    /// An environment value's own `{{…}}` are read (REST Client's behaviour; they were sent as
    /// written): other environment values, file variables, dynamic variables; a cycle or an unknown
    /// name is an error at the request's reference, naming the environment variable.
    func testEnvironmentValuesUseOtherVariables() throws {
        let text = "@version = v2\nGET {{base}}/items?id={{id}}&v={{api}}\n\n###\nGET {{base}}/{{loop}}\n\n###\nGET {{base}}/{{broken}}\n"
        let list = try RequestListLoader.load(text: text, path: "/tmp/env-values.http", format: .http)
        let environment = ["host": "http://127.0.0.1:9", "base": "{{host}}/anything", "id": "{{$uuid}}", "api": "{{version}}",
                           "loop": "{{again}}", "again": "x{{loop}}", "broken": "{{nowhere}}"]
        let resolver = RequestResolver(list: list, variables: VariableContext(environmentName: "dev", environment: environment))
        let url = try resolver.resolve(0).url.absoluteString
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:9/anything/items?id="), url)
        XCTAssertTrue(url.hasSuffix("&v=v2"), url)
        XCTAssertEqual(UUID(uuidString: String(url.dropFirst("http://127.0.0.1:9/anything/items?id=".count).prefix(36)))?.uuidString.isEmpty, false, url)
        XCTAssertThrowsError(try resolver.resolve(1)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.message, "environment variable 'loop' refers to itself (loop → again → loop)")
            XCTAssertEqual(error?.column, 14, "at the request's {{loop}}")
        }
        XCTAssertThrowsError(try resolver.resolve(2)) { error in
            let message = (error as? RequestListError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("environment variable 'broken': unknown variable 'nowhere'"), message)
        }
        let overridden = RequestResolver(list: list, variables: VariableContext(environment: environment, commandLine: ["base": "http://h.test"]))
        XCTAssertTrue(try overridden.resolve(0).url.absoluteString.hasPrefix("http://h.test/items?id="), "--var wins over the environment")
    }

    /// A response reached through an environment value makes the request wait for it.
    func testAResponseUsedThroughAnEnvironmentValueIsADependency() throws {
        let text = """
            # @name login
            POST http://127.0.0.1:9/login

            ###
            @token = {{login.response.body.$.token}}
            GET http://127.0.0.1:9/me
            Authorization: {{auth}}
            """
        let list = try RequestListLoader.load(text: text, path: "/tmp/env-dependency.http", format: .http)
        let resolver = RequestResolver(list: list, variables: VariableContext(environmentName: "dev", environment: ["auth": "Bearer {{token}}"]))
        XCTAssertNoThrow(try resolver.validate(), "validation does not resolve a request that waits")
        XCTAssertEqual(resolver.dependencies(of: 1), ["login"])
        XCTAssertEqual(resolver.producers(of: 1), [0])
        resolver.record(response: RecordedResponse(status: 200, headers: [], body: Data(#"{"token":"t0"}"#.utf8)), forRequestAt: 0)
        XCTAssertEqual(try resolver.resolve(1).header(named: "Authorization"), "Bearer t0")
    }

    /// `--var` supplies a value the request's own pre-request script would set (scripts are not run).
    func testCommandLineValueStandsInForWhatTheRequestsOwnScriptSets() throws {
        let text = "< {% request.variables.set(\"ts\", Date.now()) %}\nGET http://127.0.0.1:9/anything?ts={{ts}}\n"
        let list = try RequestListLoader.load(text: text, path: "/tmp/own-script.http", format: .http)
        XCTAssertThrowsError(try RequestResolver(list: list).resolve(0))
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: ["ts": "123"]))
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "http://127.0.0.1:9/anything?ts=123")
    }

    func testMissingEnvironmentNameListsTheAvailableOnes() {
        XCTAssertThrowsError(try Environments.load(besides: Fixtures.path("env/api.http"), name: "staging")) { error in
            let message = (error as? RequestListError)?.message ?? ""
            XCTAssertTrue(message.contains("'staging'") && message.contains("dev") && message.contains("prod"), message)
        }
    }

    func testDynamicVariablesProduceFreshValuesOfTheRightShape() throws {
        let list = try Fixtures.load("http/dynamic-variables.http")
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        let first = try resolver.resolve(0)
        let second = try resolver.resolve(0)
        let id = try XCTUnwrap(first.header(named: "X-Request-Id"))
        XCTAssertNotNil(UUID(uuidString: id))
        XCTAssertNotEqual(id, second.header(named: "X-Request-Id"))
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: first.body.data ?? Data()) as? [String: Any])
        let timestamp = try XCTUnwrap(body["at"] as? Int)
        XCTAssertLessThan(abs(Double(timestamp) - Date().timeIntervalSince1970), 60)
        let iso = try XCTUnwrap(body["iso"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        XCTAssertNotNil(formatter.date(from: iso), iso)
        let n = try XCTUnwrap(body["n"] as? Int)
        XCTAssertTrue((0..<1000).contains(n))
        let dice = try XCTUnwrap(body["dice"] as? Int)
        XCTAssertTrue((1..<7).contains(dice))
    }

    func testVariablesAreNotSubstitutedInCurlLists() throws {
        let list = try CurlImporter.parse(text: "curl 'http://x.example/{{raw}}'", path: "c.curl")
        let resolver = RequestResolver(list: list)
        XCTAssertEqual(try resolver.resolve(0).url.absoluteString, "http://x.example/{{raw}}", "taken literally and sent as written")
    }

    func testSelfReferencingFileVariableIsReported() {
        let text = "@a = {{b}}\n@b = x{{a}}\nGET http://x.example/{{a}}\n"
        XCTAssertThrowsError(try RequestResolver(list: HTTPFileParser.parse(text: text, path: "c.http")).validate()) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("refers to itself") == true, "\(error)")
        }
    }
}

final class BasicAuthTests: XCTestCase {
    func testClearTextBasicCredentialsAreEncodedAsTheHTTPClientsDo() throws {
        let text = """
            GET http://h.test/a
            Authorization: Basic alice s3cret

            ###
            GET http://h.test/b
            Authorization: Basic bob:pw

            ###
            GET http://h.test/c
            Authorization: Basic YWxyZWFkeTplbmNvZGVk
            """
        let list = try RequestListLoader.load(text: text, path: "auth.http", format: .http)
        let resolver = RequestResolver(list: list)
        let values = try (0..<3).map { try resolver.resolve($0).header(named: "Authorization") }
        XCTAssertEqual(values, ["Basic " + Data("alice:s3cret".utf8).base64EncodedString(),
                                "Basic " + Data("bob:pw".utf8).base64EncodedString(),
                                "Basic YWxyZWFkeTplbmNvZGVk"])
    }
}
