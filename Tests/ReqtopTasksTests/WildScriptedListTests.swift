import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import ReqtopTestSupport
import XCTest
import ReqtopTasks

/// `.http` files with scripts, written by other projects (httpyac's JetBrains examples, kulala's
/// tests, Dependency-Track's API requests; `Fixtures/Wild/SOURCES.md`), run against the embedded
/// server: their hosts point at it, nothing else of them changes.
final class WildScriptedListTests: RunnerTestCase {
    private static let folder = ((#filePath as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("../ReqtopRequestListsTests/Fixtures/Wild/http/scripted")

    /// Copies the project's folder to a temporary one with every public host of its `.http` files
    /// replaced by the embedded server, and runs `file` (relative to it) with its scripts.
    private func runWild(_ project: String, _ file: String, environment: String? = nil,
                         files: [String: String] = [:]) throws -> (RunOutcome, [TaskEvent]) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("wild-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: (Self.folder as NSString).appendingPathComponent(project), toPath: copy.path)
        for (name, text) in files { // files of the project the list reads that are not copied here
            let url = copy.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let base = server.baseURL.absoluteString
        let path = copy.appendingPathComponent(file).path
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for host in ["https://httpbin.org", "http://example.org"] { text = text.replacingOccurrences(of: host, with: base) }
        text = text.replacingOccurrences(of: "localhost:8080", with: server.baseURL.host! + ":\(server.baseURL.port!)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let list = try RequestListLoader.load(path: path)
        let variables = try VariableContext.load(besides: path, environmentName: environment, commandLine: [:])
        let manager = SessionManager()
        defer { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let runner = try RequestListRunner(manager: manager, inputs: [RunnerInput(list: list, variables: variables)])
        let outcome = try XCTUnwrap(waitForOutcome(runner))
        try recorder.waitForEnd(of: outcome.results.compactMap(\.task), timeout: 10)
        // The scripts' events are posted after each task's end and before the outcome: every one posted is delivered.
        recorder.flush()
        return (outcome, recorder.events)
    }

    private func sent(_ events: [TaskEvent]) -> [HTTPRequest] { events.compactMap { $0.createdDescription?.request } }

    private func scriptEvents(_ events: [TaskEvent]) -> (tests: [TestResult], errors: [String]) {
        var tests: [TestResult] = [], errors: [String] = []
        for event in events {
            if case .test(let result) = event.kind { tests.append(result) }
            if case .scriptLog(let log) = event.kind, log.level == .error { errors.append(log.text) }
        }
        return (tests, errors)
    }

    /// A global set by one handler, read by the next request, set again, read again (httpyac's
    /// copy of the JetBrains example).
    func testAGlobalIsOverwrittenBetweenRequests() throws {
        let (outcome, events) = try runWild("httpyac", "intellijGlobalCache.http")
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200, 200])
        XCTAssertEqual(sent(events).map { $0.headers.first { $0.name == "X-Header" }?.value }, [nil, "h1", "h2"])
        XCTAssertEqual(scriptEvents(events).errors, [])
    }

    /// A handler in a `.js` file beside the list, and requests written without `###` between them.
    func testAHandlerFileAndRequestsWithoutSeparators() throws {
        let (outcome, events) = try runWild("httpyac", "intellij.http")
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200], "both requests, though no ### separates them")
        XCTAssertEqual(scriptEvents(events).tests, [TestResult(name: "Request executed successfully", passed: true)])
        XCTAssertEqual(scriptEvents(events).errors, [])
        XCTAssertEqual(sent(events).map { String(decoding: $0.body.data ?? Data(), as: UTF8.self) },
                       ["email=user@domain.loc&password=2", "email=user@domain.loc&password=3"])
    }

    /// A pre-request script signs the body with `crypto.hmac.sha256()` and hashes it: the headers
    /// sent are what OpenSSL's command line computes for the same bytes.
    func testAPreRequestScriptSignsTheBody() throws {
        let openssl = try XCTUnwrap(findExecutable(named: "openssl"), "openssl is installed by scripts/setup.sh test")
        let (outcome, events) = try runWild("httpyac", "intellij_prerequest.http")
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200])
        let request = try XCTUnwrap(sent(events).first)
        let body = try XCTUnwrap(request.body.data)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func digest(_ arguments: [String]) throws -> String {
            let result = try Subprocess.run(openssl, ["dgst", "-r"] + arguments + [file.path])
            return String(result.stdoutText.prefix { $0 != " " })
        }
        XCTAssertEqual(request.headers.first { $0.name == "X-My-Signature" }?.value, try digest(["-sha256", "-hmac", "secret"]))
        XCTAssertEqual(request.headers.first { $0.name == "X-My-Hash" }?.value, try digest(["-sha256"]))
    }

    func testARequestVariableFromAPreRequestScriptIsInTheURL() throws {
        let (_, events) = try runWild("httpyac", "prerequestscript.http")
        XCTAssertEqual(sent(events).map(\.url.requestTarget), ["/John"])
    }

    /// kulala's pre-request file uses `new URL(…)`, which JavaScriptCore's bare context has not: the
    /// request is not sent, the error names the script file's line, nothing else is hidden.
    func testAScriptUsingWhatTheContextHasNotFailsWhereItSaysSo() throws {
        let (outcome, events) = try runWild("kulala", "requests/advanced_D.http")
        XCTAssertEqual(sent(events).count, 0)
        let result = try XCTUnwrap(outcome.results.first)
        guard case .notSent(let reason) = result.status else { return XCTFail("\(result.status)") }
        XCTAssertTrue(reason.contains("advanced_D_pre.js:2:") && reason.contains("URL"), reason)
    }

    /// Dependency-Track's list: path-only URLs with a Host header, variables with spaces inside the
    /// braces, a login whose handler keeps a plain-text token for the requests after it.
    func testATokenFromAPlainTextLoginIsSentAfterIt() throws {
        let (outcome, events) = try runWild("hyades", "requests.http", environment: "dev",
                                            files: ["src/test/resources/bom-1.xml": "<bom xmlns=\"http://cyclonedx.org/schema/bom/1.4\"/>\n"])
        let requests = sent(events)
        XCTAssertGreaterThanOrEqual(requests.count, 2, "\(outcome.results.map(\.status))")
        XCTAssertEqual(requests.first?.url.requestTarget, "/api/v1/user/forceChangePassword")
        XCTAssertEqual(String(decoding: requests.first?.body.data ?? Data(), as: UTF8.self),
                       "username=admin&password=admin&newPassword=admin123&confirmPassword=admin123")
        // The login answers 404 from the embedded server: its body, trimmed, is the token the next ones send.
        let login = try XCTUnwrap(requests.firstIndex { $0.url.requestTarget == "/api/v1/user/login" })
        let token = requests[(login + 1)...].compactMap { $0.headers.first { $0.name == "Authorization" }?.value }.first
        XCTAssertNotNil(token, "a request after the login carries the handler's token")
        XCTAssertFalse(token?.contains("{{") ?? true, token ?? "")
    }
}
