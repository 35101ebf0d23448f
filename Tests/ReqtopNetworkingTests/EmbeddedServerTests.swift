import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Suspend, cancel, timeouts and transport faults against the embedded loopback server.
final class EmbeddedServerTests: EmbeddedServerTestCase {

    func testSuspendPausesTransferWithoutResending() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/drip?numbytes=4000&duration=2")))
        try task.resume()
        try recorder.wait { events in events.contains { event in
            if case .progress(let p) = event.kind { return p.completed >= 400 }
            return false
        } }
        try task.suspend()
        try recorder.wait { $0.contains { $0.name == .suspended } }
        let progressAtSuspend = recorder.events.filter { $0.name == .progress }.count
        // While suspended nothing may arrive: the drip keeps sending, curl is paused.
        let quietUntil = Date().addingTimeInterval(0.6)
        while Date() < quietUntil { usleep(20_000) }
        XCTAssertEqual(recorder.events.filter { $0.name == .progress }.count, progressAtSuspend, "no progress while suspended")
        XCTAssertEqual(task.state, .suspended)
        try task.resume()
        try recorder.waitForEnd(of: [task.id])
        guard case .completed(let completion) = recorder.terminalEvent(of: task.id)?.kind else { return XCTFail() }
        XCTAssertEqual(try completion.body?.loadData(), Data(repeating: UInt8(ascii: "*"), count: 4000))
        XCTAssertEqual(server.requestCount(path: "/drip"), 1, "the request was sent exactly once")
        let names = recorder.names(of: task.id).filter { $0 != .progress }
        XCTAssertEqual(names, [.created, .resumed, .request, .response, .suspended, .resumed, .completed])
    }

    func testCancelRunningTaskEndsCancelledWithoutCompletedAndClearsRegistry() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let handled = Protected<TransferError.Code?>(nil)
        let task = manager.dataTask(with: HTTPRequest(server.url("/fault/drip-forever"))) { response in
            handled.withLock { $0 = response.error?.code }
        }
        try task.resume()
        try recorder.wait { $0.contains { $0.name == .response } }
        try task.cancel()
        try recorder.waitForEnd(of: [task.id])
        XCTAssertEqual(recorder.terminalEvent(of: task.id)?.name, .cancelled)
        XCTAssertFalse(recorder.names(of: task.id).contains(.completed))
        XCTAssertEqual(handled.snapshot, .cancelled, "the completion handler ran before the event")
        XCTAssertEqual(manager.registeredTaskCount, 0)
        XCTAssertEqual(task.state, .cancelled)
    }

    func testFractionalTimeoutFailsInAboutThatTime() async throws {
        let manager = SessionManager()
        let start = Date()
        let response = await manager.data(for: HTTPRequest(server.url("/delay/5"), options: .init(timeout: 0.3)))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(response.error?.code, .timedOut)
        XCTAssertGreaterThanOrEqual(elapsed, 0.25)
        XCTAssertLessThan(elapsed, 1.0, "0.3 s is honoured, not rounded to whole seconds")
    }

    func testTransportFailuresHaveDistinctTypedCodes() async throws {
        let manager = SessionManager()
        // A port that was free a moment ago: connecting is refused.
        let closed = try TestServer()
        let refusedURL = closed.baseURL.appendingPathComponent("get")
        closed.stop()
        let cases: [(URL, TransferError.Code)] = [
            (refusedURL, .cannotConnect),
            (URL(string: "http://reqtop-no-such-host.invalid/")!, .cannotResolveHost),
            (server.url("/fault/reset?after=1000"), .connectionReset),
            (server.url("/fault/truncated-chunked"), .truncatedBody),
            (server.url("/fault/bad-status"), .badServerResponse),
        ]
        for (target, expected) in cases {
            let response = await manager.data(for: HTTPRequest(target, options: .init(timeout: 10)))
            XCTAssertEqual(response.error?.code, expected, "\(target): \(String(describing: response.error))")
        }
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testAFailureCarriesTheBodyThatArrivedBeforeIt() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/fault/reset?after=1000")))
        try task.resume()
        try recorder.waitForEnd(of: [task.id])
        let failure = recorder.events.compactMap { event -> TaskFailure? in
            if case .failed(let failure) = event.kind { return failure }
            return nil
        }.first
        XCTAssertEqual(failure?.error.code, .connectionReset)
        XCTAssertEqual(failure?.bytes, 1000)
        XCTAssertEqual(try failure?.partialBody?.prefix(2000).count, 1000, "the 1000 bytes before the reset are kept")
    }

    func testACancelledTaskKeepsWhatArrivedAndALiveViewSeesItWhileRunning() throws {
        var configuration = SessionConfiguration()
        configuration.liveBodyPreviewBytes = 100
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/drip?numbytes=4000&duration=4")))
        XCTAssertNil(task.bodyReceivedSoFar.map { $0.isEmpty ? nil : $0 } ?? nil, "nothing before it starts")
        try task.resume()
        try recorder.wait { events in events.contains { event in
            if case .progress(let p) = event.kind { return p.completed >= 200 }
            return false
        } }
        XCTAssertEqual(task.bodyReceivedSoFar, Data(repeating: UInt8(ascii: "*"), count: 100), "the first 100 bytes, no more")
        try task.cancel()
        try recorder.waitForEnd(of: [task.id])
        guard case .cancelled(let partial)? = recorder.terminalEvent(of: task.id)?.kind, let partial else {
            return XCTFail("a cancelled event with what had arrived")
        }
        XCTAssertEqual(partial.response?.status, 200)
        XCTAssertGreaterThanOrEqual(partial.bytes, 200)
        XCTAssertEqual(try partial.partialBody?.loadData(), Data(repeating: UInt8(ascii: "*"), count: Int(partial.bytes)))
        XCTAssertNil(task.bodyReceivedSoFar, "the preview goes with the task's delegate")
    }

    func testAnEndlessBodyStopsAtTheSpillLimitInsteadOfFillingTheDisk() async throws {
        var configuration = SessionConfiguration()
        configuration.maxBodyBytesInMemory = 1000
        configuration.maxSpilledBodyBytes = 20_000
        let manager = SessionManager(configuration: configuration)
        let response = await manager.data(for: HTTPRequest(server.url("/stream-bytes/200000?chunk_size=1000")))
        XCTAssertEqual(response.error?.code, .bodyTooLarge, "\(String(describing: response.error))")
        XCTAssertLessThanOrEqual(response.bytes, 21_000, "it stopped near the limit")
        XCTAssertNil(response.body, "what passed the limit is not kept: the temp file is removed")
        // A body under the limit is unaffected.
        let small = await manager.data(for: HTTPRequest(server.url("/bytes/15000")))
        XCTAssertNil(small.error)
        XCTAssertEqual(small.value?.count, 15_000)
    }

    func testAServerThatNeverAnswersIsTimedAsWaitNotReceive() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/fault/stall?seconds=30"), options: .init(timeout: 0.5)))
        try task.resume()
        try recorder.waitForEnd(of: [task.id])
        let timings = recorder.events.compactMap { event -> PhaseTimings? in
            if case .failed(let failure) = event.kind { return failure.timings }
            return nil
        }.first
        let t = try XCTUnwrap(timings)
        XCTAssertEqual(t.receive, -1, "no byte came back: nothing was received")
        XCTAssertGreaterThan(t.wait, 300, "the time went to waiting: \(t)")
    }

    func testPostBodyArrivesIntactWithMethodAndHeaders() async throws {
        let manager = SessionManager()
        let request = HTTPRequest(server.url("/put"), method: "PUT", headers: [HTTPHeader(name: "Content-Type", value: "application/json")])
        let body = Data(#"{"name":"reqtop","n":[1,2,3]}"#.utf8)
        let response = await manager.upload(for: request, from: body)
        XCTAssertEqual(response.head?.status, 200)
        let echo = try JSONValue(parsing: try XCTUnwrap(response.value))
        XCTAssertEqual(echo["method"]?.stringValue, "PUT")
        XCTAssertEqual(echo["body_size"], .number("\(body.count)"))
        XCTAssertEqual(server.requestLog.last?.bodySize, body.count)
    }

    func testCookiesPersistWithinASession() async throws {
        let manager = SessionManager()
        _ = await manager.data(for: HTTPRequest(server.url("/cookies/set?flavour=oat")))
        let response = await manager.data(for: HTTPRequest(server.url("/cookies")))
        let echo = try JSONValue(parsing: try XCTUnwrap(response.value))
        XCTAssertEqual(echo["cookies"]?["flavour"]?.stringValue, "oat")
    }

    func testCookiesAreSentByEveryLaterRequestOnReusedHandles() async throws {
        let manager = SessionManager()
        _ = await manager.data(for: HTTPRequest(server.url("/cookies/set?flavour=oat")))
        // One at a time: each request takes the handle the one before gave back (its cookie engine is set once).
        for round in 1...5 {
            let response = await manager.data(for: HTTPRequest(server.url("/cookies?round=\(round)")))
            let echo = try JSONValue(parsing: try XCTUnwrap(response.value))
            XCTAssertEqual(echo["cookies"]?["flavour"]?.stringValue, "oat", "round \(round)")
        }
    }

    func testPerHostLimitQueuesTheRestInOrder() throws {
        var configuration = SessionConfiguration()
        configuration.maxConcurrentTasksPerHost = 2
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let start = Date()
        let tasks = (0..<6).map { i in manager.dataTask(with: HTTPRequest(server.url("/delay/0.3?i=\(i)"))) }
        for task in tasks { try task.resume() }
        try recorder.waitForEnd(of: tasks.map(\.id))
        // Three rounds of two: the limit held (a lower bound, so a slow machine cannot fail it).
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.85)
        XCTAssertEqual(recorder.events.filter { $0.name == .completed }.count, 6)
        let order = server.requestLog.filter { $0.path.hasPrefix("/delay") }.map(\.target)
        XCTAssertEqual(Set(order.prefix(2)), ["/delay/0.3?i=0", "/delay/0.3?i=1"], "waiting tasks start in creation order")
    }

    private func request(_ method: String, _ pathAndQuery: String, body: String? = nil,
                         options: HTTPRequest.Options = .init()) -> HTTPRequest {
        HTTPRequest(server.url(pathAndQuery), method: method, body: body.map { Data($0.utf8) }, options: options)
    }

    func testRedirectsChangeTheMethodOnlyWhereHTTPSaysSo() async throws {
        let manager = SessionManager()
        // 303: the next request is a GET without a body, whatever the method was.
        let deleted = await manager.data(for: request("DELETE", "/redirect-to?url=/get&status_code=303"))
        XCTAssertEqual(deleted.head?.status, 200)
        XCTAssertEqual(deleted.redirects.map(\.status), [303])
        // 307 and 308: the same method and body again (the body is rewound and re-sent).
        let put = await manager.data(for: request("PUT", "/redirect-to?url=/put&status_code=307", body: "twice"))
        let post = await manager.data(for: request("POST", "/redirect-to?url=/post&status_code=308", body: "again"))
        XCTAssertEqual(put.head?.status, 200, "\(String(describing: put.error))")
        XCTAssertEqual(post.head?.status, 200, "\(String(describing: post.error))")
        let log = server.requestLog.map { "\($0.method) \($0.path) \($0.bodySize)" }
        XCTAssertEqual(log, ["DELETE /redirect-to 0", "GET /get 0", "PUT /redirect-to 5", "PUT /put 5",
                             "POST /redirect-to 5", "POST /post 5"])
    }

    func testEngineFollowedRedirectsHonourTheLimit() async throws {
        let manager = SessionManager()
        let response = await manager.data(for: request("DELETE", "/redirect/4", options: .init(maxRedirects: 2)))
        XCTAssertEqual(response.error?.code, .tooManyRedirects)
    }

    func testUploadFromAMissingFileFailsInsteadOfSendingNothing() async throws {
        let manager = SessionManager()
        let response: TaskResponse<Data> = try awaitCompletion { done in
            let task = manager.uploadTask(with: request("POST", "/post"), fromFile: URL(fileURLWithPath: "/nonexistent/body.json"),
                                          completionHandler: done)
            try? task.resume()
        }
        XCTAssertEqual(response.error?.code, .fileIO, "\(String(describing: response.error))")
        XCTAssertTrue(response.error?.message.contains("/nonexistent/body.json") ?? false)
    }

    func testResumeAfterInvalidateEndsTheTaskAsCancelled() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/get")))
        manager.invalidate()
        XCTAssertEqual(task.state, .cancelled, "invalidate cancels tasks that were never started")
        let late = manager.dataTask(with: HTTPRequest(server.url("/get")))
        try late.resume()
        try recorder.waitForEnd(of: [late.id])
        XCTAssertEqual(recorder.terminalEvent(of: late.id)?.name, .cancelled)
        XCTAssertEqual(manager.registeredTaskCount, 0)
    }

    func testGzipBodyIsDecoded() async throws {
        let response = await SessionManager().response(for: HTTPRequest(server.url("/gzip")), serializer: JSONResponseSerializer())
        XCTAssertEqual(response.value?["gzipped"], .bool(true))
    }
}
