import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import XCTest
import ReqtopTasks

/// Hurl files run against the embedded server: captures feed later entries, the status line, header
/// lines, asserts and bodies are tests with Hurl's semantics.
final class HurlRunTests: RunnerTestCase {
    private func tests(_ events: [TaskEvent]) -> [(task: Int, result: TestResult)] {
        events.compactMap { event in
            if case .test(let result) = event.kind { return (event.task.rawValue, result) }
            return nil
        }
    }

    /// A captured value is sent by the next entry (which waits for it, even with room for both), and
    /// asserts of every kind pass or fail as Hurl's would.
    func testCapturesFeedTheNextEntryAndAssertsAreTests() throws {
        let (outcome, events) = try run("""
            # the document /json serves
            GET {{base}}/json
            HTTP 200
            Content-Type: application/json
            [Captures]
            second: jsonpath "$.alpha.nested.deep[1]"
            text: jsonpath "$.text"
            [Asserts]
            jsonpath "$.ok" == true
            jsonpath "$.zeta" isInteger
            jsonpath "$.alpha.nested.deep[1]" isFloat
            jsonpath "$.alpha.nested.deep[1]" == 2.5
            jsonpath "$.alpha.nested.deep" count == 4
            jsonpath "$..k" includes null
            jsonpath "$.text" startsWith "caf"
            jsonpath "$.missing" not exists
            jsonpath "$.zeta" == 2   # fails: it is 1

            GET {{base}}/get
            [Query]
            n: {{second}}
            q: a b&c
            HTTP 200
            [Asserts]
            jsonpath "$.args.n" == "2.5"
            jsonpath "$.args.q" == "a b&c"
            variable "text" == "café \\"q\\""
            """, format: .hurl, options: RunnerOptions(concurrency: 4))
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let second = try XCTUnwrap(events.first { $0.task.rawValue == 2 && $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(second.url.absoluteString, "\(server.baseURL.absoluteString)/get?n=2.5&q=a%20b%26c")
        let results = tests(events)
        XCTAssertEqual(results.filter { !$0.result.passed }.map(\.result.name), [#"jsonpath "$.zeta" == 2 (line 17)"#])
        XCTAssertEqual(results.first { !$0.result.passed }?.result.message, "actual: integer <1>, expected: == integer <2>")
        XCTAssertEqual(results.map(\.task), Array(repeating: 1, count: 11) + Array(repeating: 2, count: 4))
        XCTAssertEqual(results.first?.result.name, "HTTP 200 (line 3)")
        XCTAssertEqual(outcome.summary.testsPassed, 14)
        XCTAssertEqual(outcome.summary.exitCode(failOnStatus: false, interrupted: false), 4)
    }

    /// Hurl does not follow redirects unless told; header lines and the status are checked on the
    /// response that came back.
    func testRedirectsAreNotFollowedUnlessLocationIsTrue() throws {
        let (outcome, events) = try run("""
            GET {{base}}/redirect/1
            HTTP 302
            [Asserts]
            header "Location" exists

            GET {{base}}/redirect/1
            [Options]
            location: true
            HTTP 200
            [Asserts]
            url endsWith "/get"
            """, format: .hurl)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [302, 200])
        XCTAssertTrue(tests(events).allSatisfy(\.result.passed), "\(tests(events))")
    }

    /// A capture that selects nothing fails its entry, located; an entry that needs its value is not
    /// sent and says why; the rest runs.
    func testAFailedCaptureFailsItsEntryAndTheOneThatNeedsItIsNotSent() throws {
        let (outcome, events) = try run("""
            GET {{base}}/json
            HTTP 200
            [Captures]
            token: jsonpath "$.token"

            GET {{base}}/get?token={{token}}

            GET {{base}}/get?independent=1
            """, format: .hurl)
        XCTAssertEqual(outcome.summary.scriptErrors, 1)
        let error = try XCTUnwrap(events.compactMap { event -> String? in
            if case .scriptLog(let log) = event.kind, log.level == .error { return log.text }
            return nil
        }.first)
        XCTAssertEqual(error, #"test.hurl:4:1: capture token: jsonpath "$.token" selected nothing"#)
        XCTAssertEqual(outcome.results.count, 3)
        let notSent = try XCTUnwrap(outcome.results.first { if case .notSent = $0.status { true } else { false } })
        XCTAssertTrue(notSent.url.contains("token={{token}}"), notSent.url)
        XCTAssertTrue(outcome.results.contains { $0.url.hasSuffix("independent=1") && $0.httpStatus == 200 })
    }

    /// An entry with an xpath assert is refused (not sent, with the place and why); the others run.
    func testAnEntryReqtopCannotCheckIsNotSentAndTheRestRuns() throws {
        let (outcome, _) = try run("""
            GET {{base}}/html
            HTTP 200
            [Asserts]
            xpath "string(//h1)" == "Herman Melville"

            GET {{base}}/get
            HTTP 200
            """, format: .hurl)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200])
        guard case .notSent(let reason)? = outcome.results.first(where: { $0.httpStatus == nil })?.status else {
            return XCTFail("the xpath entry should not be sent: \(outcome.results)")
        }
        XCTAssertTrue(reason.contains("xpath queries are not evaluated by reqtop"), reason)
    }

    /// Bodies: a JSON body goes out as written with the Content-Type Hurl adds; form parameters are
    /// encoded; the response body is compared.
    func testBodiesGoOutAsWrittenAndAResponseBodyIsCompared() throws {
        let (outcome, events) = try run("""
            POST {{base}}/anything
            {"name": "Bob", "tags": [1, 2]}
            HTTP 200
            [Asserts]
            jsonpath "$.json.name" == "Bob"
            header "Content-Type" contains "json"
            jsonpath "$.headers.Content-Type" == "application/json"

            POST {{base}}/anything
            [Form]
            a: 1 2
            b: é
            HTTP 200
            [Asserts]
            jsonpath "$.form.a" == "1 2"
            jsonpath "$.headers.Content-Type" == "application/x-www-form-urlencoded"

            GET {{base}}/status/418
            HTTP 418
            """, format: .hurl)
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200, 418])
        let first = try XCTUnwrap(events.first { $0.task.rawValue == 1 && $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(first.body.data.map { String(decoding: $0, as: UTF8.self) }, #"{"name": "Bob", "tags": [1, 2]}"#)
        XCTAssertTrue(tests(events).allSatisfy(\.result.passed), "\(tests(events).filter { !$0.result.passed })")
        XCTAssertEqual(tests(events).count, 8)
    }
}
