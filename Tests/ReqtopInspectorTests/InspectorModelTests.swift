import Foundation
@testable import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTestServer
import ReqtopTestSupport
import XCTest
import ReqtopTasks

/// The inspector's actions on a real session against the embedded server, observed through the store.
final class InspectorModelTests: XCTestCase {
    private var server: TestServer!
    private var manager: SessionManager!
    private var store: TaskStore!
    private var session: InspectorModel!
    private var subscription: EventMonitorHost!

    private func url(_ pathAndQuery: String) -> HTTPURL { HTTPURL(string: server.url(pathAndQuery).absoluteString)! }

    override func setUpWithError() throws {
        server = try TestServer()
        server.start()
        manager = SessionManager()
        store = TaskStore()
        subscription = store.observe(manager.bus)
        session = InspectorModel(manager: manager, store: store, secrets: SecretPolicy())
    }

    override func tearDown() {
        manager.invalidate()
        server.stop()
    }

    private func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) {
        if !eventually(timeout: timeout, condition) { XCTFail("timed out waiting for \(what)") }
    }

    func testSuspendResumeAndCancelReachTheTasks() throws {
        let slow = session.start(HTTPRequest(url: url("/drip?numbytes=3000&duration=3")), name: nil)
        let endless = session.start(HTTPRequest(url: url("/fault/drip-forever")), name: nil)
        waitFor("both running with bytes") {
            (store.record(slow)?.downloaded ?? 0) > 0 && (store.record(endless)?.downloaded ?? 0) > 0
        }
        XCTAssertEqual(session.suspendOrResume(slow), "suspended \(slow)")
        waitFor("suspended") { store.record(slow)?.state == .suspended }
        let bytesWhenSuspended = store.record(slow)?.downloaded
        XCTAssertEqual(session.cancel(endless), "cancelled \(endless)")
        waitFor("cancelled") { store.record(endless)?.state == .cancelled }
        XCTAssertEqual(store.record(slow)?.downloaded, bytesWhenSuspended, "no bytes while suspended")
        XCTAssertEqual(session.suspendOrResume(slow), "resumed \(slow)")
        waitFor("completed") { store.record(slow)?.state == .completed }
        XCTAssertEqual(store.record(slow)?.downloaded, 3000)
        XCTAssertEqual(session.cancel(slow), "task \(slow) has already ended")
        XCTAssertEqual(session.unfinishedCount, 0)
    }

    func testReplaySendsTheSameRequestAsANewTask() throws {
        let request = HTTPRequest(method: "POST", url: url("/post"), headers: [HTTPHeader(name: "Content-Type", value: "text/plain")],
                                  body: .data(Data("hello".utf8)))
        let first = session.start(request, name: "greet")
        waitFor("first done") { store.record(first)?.state == .completed }
        let message = session.replay(try XCTUnwrap(store.record(first)))
        XCTAssertTrue(message.hasPrefix("replaying \(first) as #"), message)
        waitFor("two posts") { server.requestCount(path: "/post") == 2 }
        let posts = server.requestLog.filter { $0.path == "/post" }
        XCTAssertEqual(posts.map(\.bodySize), [5, 5])
        XCTAssertEqual(posts.last?.header("Content-Type"), "text/plain")
    }

    func testReplayKeepsTheTaskOptions() throws {
        let first = session.start(HTTPRequest(url: url("/delay/3"), options: .init(timeout: 0.3)), name: "slow")
        waitFor("the first to time out") { store.record(first)?.state == .failed }
        let message = session.replay(try XCTUnwrap(store.record(first)))
        let replayNumber = try XCTUnwrap(message.split(separator: "#").last.flatMap { Int($0) }, message)
        let replay = TaskID(rawValue: replayNumber)
        waitFor("the replay to time out too") { store.record(replay)?.state == .failed }
        XCTAssertEqual(store.record(replay)?.error?.code, .timedOut)
        XCTAssertEqual(store.record(replay)?.name, "slow")
        XCTAssertEqual(store.record(replay)?.request.options.timeout, 0.3)
    }

    func testSavedHARParsesWithEveryFinishedTask() throws {
        let ids = ["/get", "/status/404", "/redirect/2"].map { session.start(HTTPRequest(url: url($0)), name: nil) }
        waitFor("all done") { ids.allSatisfy { store.record($0)?.state.isTerminal ?? false } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(session.saveHAR(to: path), "saving 3 tasks to \(path) in the background…")
        session.waitForBackgroundWork()
        XCTAssertNil(session.activity)
        XCTAssertEqual(session.takeNotice(), "saved 3 tasks to \(path)")
        XCTAssertNil(session.takeNotice(), "said once")
        let har = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let entries = try XCTUnwrap((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        // Each request sent is an entry, a redirect hop too, as browsers export them.
        XCTAssertEqual(entries.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int }, [200, 404, 302, 302, 200])
        XCTAssertEqual(entries.compactMap { ($0["response"] as? [String: Any])?["redirectURL"] as? String }[2], "/redirect/1")
        // And it re-imports as requests to the same URLs.
        let list = try RequestListLoader.load(path: path)
        XCTAssertEqual(list.specs.map(\.url), ["/get", "/status/404", "/redirect/2", "/redirect/1", "/get"].map { server.url($0).absoluteString })
    }

    func testBodiesOnDiskAreKeptAndEveryBodyHeldGoesInTheHAR() throws {
        var configuration = SessionConfiguration()
        configuration.maxBodyBytesInMemory = 1024 // bodies past 1 KB spill to a file
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        let store = TaskStore(bodyBudget: 2500) // room for two 1,000-byte bodies in memory
        let subscription = store.observe(manager.bus)
        defer { subscription.stop() }
        let session = InspectorModel(manager: manager, store: store, secrets: SecretPolicy())
        var ids: [TaskID] = []
        for path in ["/bytes/2000000", "/bytes/1000?seed=1", "/bytes/1000?seed=2", "/bytes/1000?seed=3"] {
            let id = session.start(HTTPRequest(url: url(path)), name: nil)
            waitFor(path) { store.record(id)?.state.isTerminal ?? false }
            ids.append(id)
        }
        guard case .file(let file)? = store.record(ids[0])?.body else { return XCTFail("the 2 MB body should be in a file") }
        XCTAssertEqual(file.size, 2_000_000, "a body on disk costs no memory: kept")
        XCTAssertEqual(store.record(ids[1])?.bodyReleased, true, "the oldest in-memory body went past the budget")
        XCTAssertNotNil(store.record(ids[3])?.body)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = try XCTUnwrap(store.record(ids[0]))
        XCTAssertTrue(session.saveBody(record, to: folder.path).contains("is a folder: nothing saved"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path), "a folder given as the path is never replaced")
        let saved = folder.appendingPathComponent("body.bin").path
        XCTAssertTrue(session.saveBody(record, to: saved).hasPrefix("saved the body of"))
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: saved)[.size] as? Int), 2_000_000)
        _ = session.saveHAR(to: path)
        session.waitForBackgroundWork()
        let message = session.takeNotice() ?? ""
        XCTAssertTrue(message.contains("1 body released earlier"), message)
        let har = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let entries = try XCTUnwrap((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let contents = entries.map { ($0["response"] as? [String: Any])?["content"] as? [String: Any] ?? [:] }
        XCTAssertEqual(contents[0]["encoding"] as? String, "base64")
        XCTAssertEqual(Data(base64Encoded: contents[0]["text"] as? String ?? "")?.count, 2_000_000, "large bodies are included")
        XCTAssertNil(contents[1]["text"])
        XCTAssertEqual(entries[1]["comment"] as? String, SessionExport.omittedBodyComment)
        XCTAssertNotNil(contents[3]["text"])
    }

    func testCurlExportRunsWithRealCurl() throws {
        let id = session.start(HTTPRequest(url: url("/get?from=reqtop")), name: nil)
        waitFor("done") { store.record(id)?.state == .completed }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).sh").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = session.exportCurl(try XCTUnwrap(store.record(id)), to: path)
        let command = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(command.hasPrefix("#!/bin/sh\ncurl "), command)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path))
        let run = try Subprocess.run(path, [], timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderrText)
        XCTAssertEqual(server.requestLog.filter { $0.target == "/get?from=reqtop" }.count, 2, "curl sent the same request")
    }

    func testCurlExportSendsWhatReqtopSent() throws {
        // Method as written, a URL curl would glob, headers in order with duplicates, a body without Content-Type.
        let request = HTTPRequest(method: "wHat", url: url("/echo/head?a=%3A&b=[1]"),
                                  headers: [HTTPHeader(name: "Z-Last", value: "1"), HTTPHeader(name: "X-Dup", value: "a"),
                                            HTTPHeader(name: "x-dup", value: "b"), HTTPHeader(name: "X-Empty", value: "")],
                                  body: .data(Data("raw body".utf8)))
        let id = session.start(request, name: nil)
        waitFor("done") { store.record(id)?.state == .completed }
        let byReqtop = try XCTUnwrap(server.requestLog.last)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-\(UUID().uuidString).sh").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = session.exportCurl(try XCTUnwrap(store.record(id)), to: path)
        let run = try Subprocess.run(path, [], timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderrText)
        let byCurl = try XCTUnwrap(server.requestLog.last)
        // Only the client's own User-Agent (and reqtop's Accept-Encoding) differ.
        func significant(_ head: [String]) -> [String] {
            head.filter { !$0.hasPrefix("User-Agent:") && !$0.hasPrefix("Accept-Encoding:") }
        }
        XCTAssertEqual(significant(byCurl.rawHead), significant(byReqtop.rawHead))
        XCTAssertEqual(byCurl.bodySize, byReqtop.bodySize)
    }
}
