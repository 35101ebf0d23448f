import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import XCTest
import ReqtopTasks

/// `.http` lists whose scripts run (JetBrains HTTP Client API) against the embedded server.
final class ScriptedListTests: RunnerTestCase {
    private let login = """
        ### login
        POST {{base}}/anything/login
        Content-Type: application/json

        {"token": "t-42"}

        > {%
            client.global.set("token", response.body.json.token);
            client.test("logged in", function () { client.assert(response.status === 200, "status " + response.status); });
        %}
        """

    /// The token a handler keeps is sent by the later request that uses it, which waits for it even
    /// with room for both at once; the tests are events of their tasks and results of the run.
    func testATokenFromALoginHandlerIsSentByTheNextRequest() throws {
        let (outcome, events) = try run(login + """

            ### me
            GET {{base}}/headers
            Authorization: Bearer {{token}}

            > {%
                client.test("the token went out", () => client.assert(response.body.headers.Authorization === "Bearer t-42",
                                                                      "sent " + response.body.headers.Authorization));
                client.log("me is", response.status);
            %}
            """, options: RunnerOptions(concurrency: 4))
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let me = try XCTUnwrap(events.first { $0.task.rawValue == 2 && $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(me.headers.first { $0.name == "Authorization" }?.value, "Bearer t-42")
        let loginEnd = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 1 && $0.name == .completed })
        let meCreated = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 2 && $0.name == .created })
        XCTAssertLessThan(loginEnd, meCreated, "the request that needs the token waits for the handler that sets it")
        let tests = events.compactMap { event -> (Int, TestResult)? in
            if case .test(let result) = event.kind { return (event.task.rawValue, result) }
            return nil
        }
        XCTAssertEqual(tests.map(\.0), [1, 2])
        XCTAssertEqual(tests.map(\.1), [TestResult(name: "logged in", passed: true), TestResult(name: "the token went out", passed: true)])
        XCTAssertTrue(events.contains { if case .scriptLog(let log) = $0.kind { log.text == "me is 200" } else { false } })
        XCTAssertEqual(outcome.summary.testsPassed, 2)
        XCTAssertEqual(outcome.summary.exitCode(failOnStatus: false, interrupted: false), 0)
    }

    func testAFailedTestExitsFourAndAScriptErrorFailsOnlyItsRequest() throws {
        let (outcome, events) = try run("""
            GET {{base}}/status/404

            > {%
                client.test("found", function () { client.assert(response.status === 200, "got " + response.status); });
            %}

            ###
            GET {{base}}/get

            > {%
                const missing = response.body.nothing.here;
            %}

            ###
            GET {{base}}/get?still=1
            """)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus).sorted(), [200, 200, 404], "every request ran")
        XCTAssertEqual(outcome.summary.testsFailed, 1)
        XCTAssertEqual(outcome.summary.scriptErrors, 1)
        let error = try XCTUnwrap(events.compactMap { event -> ScriptLog? in
            if case .scriptLog(let log) = event.kind, log.level == .error { return log }
            return nil
        }.first)
        XCTAssertTrue(error.text.hasPrefix("test.http:11:"), "located on the script's line in the list: \(error.text)")
        XCTAssertEqual(outcome.summary.exitCode(failOnStatus: false, interrupted: false), 1, "a failed script is a failure")
        let onlyTests = try run("GET {{base}}/status/404\n\n> {%\nclient.test('found', () => client.assert(false, 'no'));\n%}\n").0
        XCTAssertEqual(onlyTests.summary.exitCode(failOnStatus: false, interrupted: false), 4, "a failed test alone exits 4")
    }

    /// A pre-request script's `request.variables` are its own request's; an endless one is stopped
    /// at the time limit and its request is not sent, the rest of the list runs.
    func testPreRequestVariablesAndAnEndlessScript() throws {
        var options = RunnerOptions()
        options.scriptTimeLimit = 0.3
        let (outcome, events) = try run("""
            < {%
                request.variables.set("stamp", "s-" + (1 + 1));
            %}
            GET {{base}}/anything/{{stamp}}

            ###
            < {%
                while (true) {}
            %}
            GET {{base}}/anything/never

            ###
            GET {{base}}/anything/after
            """, options: options)
        let sent = events.compactMap { $0.createdDescription?.request.url.absoluteString }
        XCTAssertEqual(sent, [server.baseURL.absoluteString + "/anything/s-2", server.baseURL.absoluteString + "/anything/after"])
        let notSent = try XCTUnwrap(outcome.results.first { if case .notSent = $0.status { true } else { false } })
        guard case .notSent(let reason) = notSent.status else { return XCTFail() }
        XCTAssertTrue(reason.contains("pre-request script failed: test.http:7:") && reason.contains("over its 0.3 s limit"), reason)
    }

    func testNoScriptsLeavesTheRequestThatNeedsTheTokenUnsent() throws {
        var options = RunnerOptions(concurrency: 2)
        options.runsScripts = false
        let (outcome, events) = try run(login + "\n\n###\nGET {{base}}/headers\nAuthorization: Bearer {{token}}\n", options: options)
        XCTAssertEqual(events.filter { $0.name == .test }.count, 0)
        let refused = try XCTUnwrap(outcome.results.first { $0.task == nil })
        guard case .notSent(let reason) = refused.status else { return XCTFail() }
        XCTAssertTrue(reason.contains("scripts are not run here"), reason)
    }

    /// A HAR recorded during the run (as `--har` records it) has each response's tests as `_tests`.
    func testTheHARHasEachResponsesTests() throws {
        var recorder: HARRecorder?
        let (outcome, _) = try run(login + "\n\n###\nGET {{base}}/status/500\n\n> {%\nclient.test('ok', () => client.assert(response.status < 500, 'got 500'));\n%}\n",
                                   configure: { runner in
                                       recorder = HARRecorder(bus: runner.manager.bus, secrets: SecretPolicy())
                                       recorder?.start()
                                   })
        XCTAssertEqual(outcome.summary.testsFailed, 1)
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("tests-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: har) }
        recorder?.stop()
        _ = try XCTUnwrap(recorder).write(to: har)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any]
        let entries = try XCTUnwrap((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let tests = entries.map { ($0["_tests"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "") \($0["passed"] ?? "") \($0["message"] ?? "-")" } }
        XCTAssertEqual(tests, [["logged in 1 -"], ["ok 0 got 500"]])
    }

    /// The JUnit report: a case per test, named after its request; failures and errors counted.
    func testTheJUnitAndTAPReportsListEveryTest() throws {
        let (outcome, _) = try run(login + "\n\n###\nGET {{base}}/status/500\n\n> {%\nclient.test('ok', () => client.assert(response.status < 500, 'got 500'));\n%}\n",
                                   options: RunnerOptions())
        let xml = String(decoding: TestReport.junit(outcome.results, lists: ["api.http"]), as: UTF8.self)
        XCTAssertTrue(xml.contains(#"<testsuite name="api.http" tests="2" failures="1" errors="0""#), xml)
        XCTAssertTrue(xml.contains(#"<testcase classname="login" name="logged in""#), xml)
        XCTAssertTrue(xml.contains(#"<failure message="got 500" type="assertion">got 500</failure>"#), xml)
        let document = try XMLDocument(data: Data(xml.utf8))
        XCTAssertEqual(try document.nodes(forXPath: "//testcase").count, 2)
        let tap = String(decoding: TestReport.tap(outcome.results), as: UTF8.self)
        XCTAssertTrue(tap.hasPrefix("TAP version 13\n1..2\nok 1 login - logged in\nnot ok 2 "), tap)
    }
}

/// What a dry run and `convert` make of a scripted list: nothing runs, and nothing is hidden.
final class ScriptedListWritingTests: XCTestCase {
    private let text = """
        ### login
        POST http://api.test/login

        {"user": "ada"}

        > {%
            client.global.set("token", response.body.token);
        %}

        ### me
        < ./sign.js
        GET http://api.test/me
        Authorization: Bearer {{token}}
        """

    func testADryRunShowsAScriptsValueAsItsNameAndSaysWhichScriptSetsIt() throws {
        let list = try RequestListLoader.load(text: text, path: "/lists/api.http", format: .http)
        let dry = DryRun.text(for: RequestResolver(list: list), configuration: SessionConfiguration())
        XCTAssertEqual(dry.notSent, 0, "it would be sent, with what the script sets")
        XCTAssertTrue(dry.text.contains("Authorization: Bearer {{token}}\n# set by scripts when the list runs (a dry run runs none): "
                                        + "{{token}} from the script at api.http:6"), dry.text)
    }

    func testConvertKeepsScriptsInHTTPAndSaysCurlCannotCarryThem() throws {
        let list = try RequestListLoader.load(text: text, path: "/lists/api.http", format: .http)
        let http = try RequestListLoader.convert(list, to: .http, redaction: nil)
        let back = try RequestListLoader.load(text: String(decoding: http.data, as: UTF8.self), path: "/elsewhere/api.http", format: .http)
        XCTAssertEqual(back.specs.map { $0.scripts.map(\.kind) }, [[.responseHandler], [.preRequest]])
        XCTAssertEqual(back.specs[0].scripts[0].source.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"client.global.set("token", response.body.token);"#)
        XCTAssertEqual(back.specs[1].scripts[0].source, "/lists/sign.js", "a script file made absolute: it reads back from anywhere")
        XCTAssertEqual(back.specs[0].scripts[0].source, list.specs[0].scripts[0].source, "its text byte for byte (lines and all)")
        let curl = try RequestListLoader.convert(list, to: .curl, redaction: nil)
        XCTAssertEqual(curl.warnings.count, 2, "\(curl.warnings)")
        XCTAssertTrue(curl.warnings.allSatisfy { $0.message.contains("curl cannot carry scripts") })
        XCTAssertTrue(String(decoding: curl.data, as: UTF8.self).contains("Authorization: Bearer {{token}}"))
    }
}

/// httpyac's JavaScript `{{ expressions }}`, evaluated in the run's script context.
final class ExpressionListTests: RunnerTestCase {
    func testAnExpressionIsEvaluatedWithTheVariablesInScope() throws {
        let (outcome, events) = try run("""
            @count = 2
            GET {{base}}/anything/{{ [1, 2, 3].map(n => n * 10).join("-") }}?host={{ base.startsWith("http://127.0.0.1") }}
            X-Sum: {{ 40 + 2 }}
            X-Object: {{ ({a: 1}) }}
            """)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200])
        let request = try XCTUnwrap(events.first { $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(request.url.requestTarget, "/anything/10-20-30?host=true")
        XCTAssertEqual(request.headers.first { $0.name == "X-Sum" }?.value, "42")
        XCTAssertEqual(request.headers.first { $0.name == "X-Object" }?.value, #"{"a":1}"#)
    }

    func testAThrowingExpressionLeavesOnlyItsRequestUnsentAndNoScriptsSaySo() throws {
        let list = "GET {{base}}/anything/{{ nothing.here() }}\n\n###\nGET {{base}}/anything/after\n"
        let (outcome, events) = try run(list)
        XCTAssertEqual(events.compactMap { $0.createdDescription?.request.url.requestTarget }, ["/anything/after"])
        let refused = try XCTUnwrap(outcome.results.first { $0.task == nil })
        guard case .notSent(let reason) = refused.status else { return XCTFail() }
        XCTAssertTrue(reason.contains("nothing") && reason.contains("ReferenceError"), reason)
        var options = RunnerOptions()
        options.runsScripts = false
        let (without, _) = try run(list, options: options)
        guard case .notSent(let why)? = without.results.first(where: { $0.task == nil })?.status else { return XCTFail() }
        XCTAssertTrue(why.contains("evaluated only when the list's scripts run"), why)
    }
}

/// A Postman collection's `pm.*` scripts run in the same engine: a token from a login's test script
/// goes out with the next request, `pm.expect` chains are tests, a pre-request script adds a header.
final class PostmanScriptTests: RunnerTestCase {
    /// Runs the collection `text` (written to a file, as a user's is) against the embedded server, two at a time.
    private func runCollection(_ text: String) throws -> (RunOutcome, EventRecorder) {
        let path = NSTemporaryDirectory() + "/reqtop-pm-\(UUID().uuidString).postman_collection.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let list = try RequestListLoader.load(path: path)
        let manager = SessionManager()
        defer { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let runner = try RequestListRunner(manager: manager, inputs: [RunnerInput(list: list, variables: VariableContext(
            commandLine: ["base": server.baseURL.absoluteString]))], options: RunnerOptions(concurrency: 2))
        let outcome = try XCTUnwrap(waitForOutcome(runner))
        try recorder.waitForEnd(of: outcome.results.compactMap(\.task), timeout: 10)
        recorder.flush()
        return (outcome, recorder)
    }

    func testPostmanScriptsCarryATokenAndTheirExpectationsAreTests() throws {
        let text = #"""
            {
              "info": {"name": "api", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
              "event": [{"listen": "prerequest", "script": {"exec": ["pm.request.headers.add({key: 'X-Run', value: 'r-1'});"]}}],
              "item": [
                {"name": "login", "request": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}],
                  "body": {"mode": "raw", "raw": "{\"token\": \"t-9\"}"}, "url": "{{base}}/anything/login"},
                 "event": [{"listen": "test", "script": {"exec": [
                   "pm.environment.set('token', pm.response.json().json.token);",
                   "pm.test('status is 200', () => pm.response.to.have.status(200));",
                   "pm.test('has a token', () => pm.expect(pm.response.json().json).to.have.property('token', 't-9'));"
                 ]}}]},
                {"name": "me", "request": {"method": "GET", "header": [{"key": "Authorization", "value": "Bearer {{token}}"}],
                  "url": "{{base}}/headers"},
                 "event": [{"listen": "test", "script": {"exec": [
                   "const headers = pm.response.json().headers;",
                   "pm.test('token sent', () => pm.expect(headers.Authorization).to.equal('Bearer t-9'));",
                   "pm.test('header added', () => pm.expect(headers['X-Run']).to.eql('r-1'));",
                   "pm.test('a failing one', () => pm.expect([1, 2]).to.include(3));"
                 ]}}]}
              ]
            }
            """#
        let (outcome, recorder) = try runCollection(text)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let tests = recorder.events.compactMap { event -> TestResult? in if case .test(let t) = event.kind { t } else { nil } }
        XCTAssertEqual(tests.map(\.name), ["status is 200", "has a token", "token sent", "header added", "a failing one"])
        XCTAssertEqual(tests.map(\.passed), [true, true, true, true, false], "\(tests)")
        XCTAssertEqual(tests.last?.message, "expected [1,2] to include 3")
        XCTAssertEqual(outcome.summary.exitCode(failOnStatus: false, interrupted: false), 4)
    }

    /// Postman's older sandbox API (`postman.setEnvironmentVariable`, `tests["…"] = …`,
    /// `responseBody`, `responseCode`) and its faker variables (`{{$randomFirstName}}`).
    func testPostmansOlderScriptAPIAndItsRandomVariables() throws {
        let text = #"""
            {
              "info": {"name": "old", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
              "item": [
                {"name": "login", "request": {"method": "POST", "url": "{{base}}/anything/login",
                  "body": {"mode": "raw", "raw": "{\"who\": \"{{$randomFirstName}}\", \"mail\": \"{{$randomEmail}}\"}"}},
                 "event": [{"listen": "test", "script": {"exec": [
                   "var data = JSON.parse(responseBody);",
                   "postman.setEnvironmentVariable('who', data.json.who);",
                   "tests['status code is 200'] = responseCode.code === 200;",
                   "tests['a mail was sent'] = /@example\\.com$/.test(data.json.mail);",
                   "tests['a failing one'] = responseCode.code === 201;"
                 ]}}]},
                {"name": "again", "request": {"method": "GET", "url": "{{base}}/get?who={{who}}"}}
              ]
            }
            """#
        let (outcome, recorder) = try runCollection(text)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let tests = recorder.events.compactMap { event -> TestResult? in if case .test(let t) = event.kind { t } else { nil } }
        XCTAssertEqual(tests.map(\.name), ["status code is 200", "a mail was sent", "a failing one"])
        XCTAssertEqual(tests.map(\.passed), [true, true, false])
        let login = try XCTUnwrap(recorder.events.first { $0.task.rawValue == 1 && $0.name == .created }?.createdDescription?.request)
        let who = try XCTUnwrap((try JSONSerialization.jsonObject(with: login.body.data ?? Data()) as? [String: String])?["who"])
        XCTAssertFalse(who.isEmpty || who.contains("{{"), who)
        let again = try XCTUnwrap(recorder.events.first { $0.task.rawValue == 2 && $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(again.url.absoluteString, "\(server.baseURL.absoluteString)/get?who=\(who)", "set by postman.setEnvironmentVariable")
    }
}
