import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import XCTest
import ReqtopTasks

/// A Bruno collection (written to a temporary folder) run against the embedded server: order by
/// `seq`, inherited auth, variables, scripts (`bru.setVar`, `res.body`), tests and asserts.
final class BrunoRunTests: RunnerTestCase {
    func testACollectionRunsInSeqOrderWithScriptsAssertsAndInheritedAuth() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-bruno-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files: [String: String] = [
            "bruno.json": #"{"version": "1", "name": "t", "type": "collection"}"#,
            "collection.bru": "headers {\n  X-Collection: yes\n}\n\nauth {\n  mode: bearer\n}\n\nauth:bearer {\n  token: {{token}}\n}\n",
            "environments/local.bru": "vars {\n  base: \(server.baseURL.absoluteString)\n  token: t-1\n}\n",
            "users/folder.bru": "meta {\n  name: Users\n  seq: 1\n}\n",
            "users/b-second.bru": """
                meta {
                  name: second
                  seq: 2
                }

                get {
                  url: {{base}}/headers
                  body: none
                  auth: inherit
                }

                headers {
                  X-Id: {{id}}
                  ~X-Off: 1
                }

                assert {
                  res.status: eq 200
                  res.body.headers.X-Id: eq "{{id}}"
                }

                """,
            "users/a-first.bru": """
                meta {
                  name: first
                  seq: 1
                }

                post {
                  url: {{base}}/anything
                  body: json
                  auth: none
                }

                body:json {
                  {"id": 7}
                }

                script:post-response {
                  bru.setVar("id", res.body.json.id);
                }

                tests {
                  test("echoed", function () {
                    expect(res.getStatus()).to.equal(200);
                    expect(res.body.json.id).to.equal(7);
                  });
                }

                """,
        ]
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let list = try RequestListLoader.load(path: root.path)
        XCTAssertEqual(list.specs.map { $0.name ?? "" }, ["Users / first", "Users / second"])
        let variables = try VariableContext.load(besides: root.path, environmentName: "local", commandLine: [:])
        let manager = SessionManager(configuration: SessionConfiguration())
        defer { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let runner = try RequestListRunner(manager: manager, inputs: [RunnerInput(list: list, variables: variables)],
                                           options: RunnerOptions(concurrency: 4))
        let outcome = try XCTUnwrap(waitForOutcome(runner))
        try recorder.waitForEnd(of: outcome.results.compactMap(\.task), timeout: 10)
        recorder.flush()
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let second = try XCTUnwrap(recorder.events.first { $0.task.rawValue == 2 && $0.name == .created }?.createdDescription?.request)
        XCTAssertEqual(second.headers.map(\.name), ["X-Collection", "X-Id", "Authorization"])
        XCTAssertEqual(second.headers.value(for: "X-Id"), "7")
        XCTAssertEqual(second.headers.value(for: "Authorization"), "Bearer t-1")
        let first = try XCTUnwrap(recorder.events.first { $0.task.rawValue == 1 && $0.name == .created }?.createdDescription?.request)
        XCTAssertNil(first.headers.value(for: "Authorization"), "auth: none")
        XCTAssertEqual(first.headers.value(for: "Content-Type"), "application/json")
        let tests = recorder.events.compactMap { event -> TestResult? in if case .test(let t) = event.kind { t } else { nil } }
        XCTAssertEqual(tests.map(\.name), ["echoed", "res.status: eq 200 (line 18)", "res.body.headers.X-Id: eq \"{{id}}\" (line 19)"])
        XCTAssertTrue(tests.allSatisfy(\.passed), "\(tests)")
    }
}
