import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopRequestLists
import ReqtopSync
import XCTest
import ReqtopTasks

final class RequestListRunnerTests: RunnerTestCase {
    func testChainedRequestWaitsForItsDependencyAndSendsValueFromItsResponse() throws {
        let (outcome, events) = try run("""
            # @name first
            GET {{base}}/delay/0.3?step=1

            ###
            POST {{base}}/anything/second
            Content-Type: application/json

            {"previous": "{{first.response.body.$.url}}"}
            """, options: RunnerOptions(concurrency: 4))
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200])
        let firstEnd = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 1 && $0.isTerminal })
        let secondCreated = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 2 && $0.name == .created })
        XCTAssertLessThan(firstEnd, secondCreated, "the dependent is created only after its dependency finished")
        let body = try XCTUnwrap(events[secondCreated].createdDescription?.request.body.data)
        let expected = server.baseURL.absoluteString + "/delay/0.3?step=1"
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "{\"previous\": \"\(expected)\"}")
    }

    /// A repeated name: the dependent reads the nearest request of that name before it and waits for
    /// that one only — not for the other (slow) one, whether it comes before or after the dependent.
    func testAChainedRequestReadsAndWaitsForTheNearestEarlierRequestOfARepeatedName() throws {
        let dependent = """
            POST {{base}}/anything/dependent
            Content-Type: application/json

            {"previous": "{{step.response.body.$.url}}"}
            """
        for (list, read, slowFirst) in [
            ("# @name step\nGET {{base}}/delay/0.5\n\n###\n# @name step\nGET {{base}}/anything/near\n\n###\n" + dependent, "/anything/near", true),
            ("# @name step\nGET {{base}}/anything/near\n\n###\n" + dependent + "\n\n###\n# @name step\nGET {{base}}/delay/0.5\n", "/anything/near", false),
        ] {
            let (outcome, events) = try run(list, options: RunnerOptions(concurrency: 4))
            XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200, 200])
            func task(_ path: String) throws -> TaskID { try XCTUnwrap(events.first { $0.createdDescription?.url.path == path }?.task, path) }
            func end(_ path: String) throws -> Int { let id = try task(path); return try XCTUnwrap(events.firstIndex { $0.task == id && $0.isTerminal }) }
            let created = try XCTUnwrap(events.firstIndex { $0.createdDescription?.url.path == "/anything/dependent" })
            XCTAssertLessThan(try end(read), created, "the dependent is created only after the request it reads finished")
            XCTAssertLessThan(created, try end("/delay/0.5"), "it does not wait for the other request of the name (slow, \(slowFirst ? "before" : "after") it)")
            let body = try XCTUnwrap(events[created].createdDescription?.request.body.data)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "{\"previous\": \"\(server.baseURL.absoluteString)\(read)\"}")
        }
    }

    func testAtMostConcurrencyTasksAreInFlightAndSubmittedInListOrder() throws {
        let requests = (1...8).map { "GET {{base}}/delay/0.2?n=\($0)" }.joined(separator: "\n\n###\n")
        let (outcome, events) = try run(requests, options: RunnerOptions(concurrency: 3))
        XCTAssertEqual(outcome.results.count, 8)
        var inFlight = 0
        var maxInFlight = 0
        for event in events {
            if event.name == .created { inFlight += 1 }
            if event.isTerminal { inFlight -= 1 }
            maxInFlight = max(maxInFlight, inFlight)
        }
        XCTAssertEqual(maxInFlight, 3)
        let createdURLs = events.compactMap(\.createdDescription).map(\.url.query)
        XCTAssertEqual(createdURLs, (1...8).map { "n=\($0)" })
    }

    func testWithALookaheadTheEngineHoldsTheNextRequestsButRunsOnlyConcurrencyAtOnce() throws {
        let requests = (1...8).map { "GET {{base}}/delay/0.2?n=\($0)" }.joined(separator: "\n\n###\n")
        let start = Date()
        let (outcome, events) = try run(requests, options: RunnerOptions(concurrency: 2, lookahead: 2), configuration: .limited(to: 2))
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), Array(repeating: 200, count: 8))
        // Four rounds of two: the limit held (a lower bound, so a slow machine cannot fail it).
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.75)
        var created = 0, maxCreated = 0
        for event in events {
            if event.name == .created { created += 1 }
            if event.isTerminal { created -= 1 }
            maxCreated = max(maxCreated, created)
        }
        XCTAssertEqual(maxCreated, 4, "two more handed over ahead of their turn")
        XCTAssertEqual(events.compactMap(\.createdDescription).map(\.url.query), (1...8).map { "n=\($0)" })
        let resumed = events.filter { $0.name == .resumed }
        XCTAssertEqual(resumed.map(\.task.rawValue), Array(1...8), "started in list order")
        // The third, handed over at once, starts only when one of the first two finished: a delay after them.
        XCTAssertGreaterThanOrEqual(resumed[2].time - resumed[0].time, 0.19)
        let sent = server.requestLog.filter { $0.path.hasPrefix("/delay") }.map(\.target)
        XCTAssertEqual(Set(sent.suffix(2)), ["/delay/0.2?n=7", "/delay/0.2?n=8"], "sent in list order, two at a time")
    }

    /// A run at concurrency 1, two ahead, whose caller submits ahead (as a headless run's printing thread
    /// does): which tasks were created on the test's thread, and a semaphore signalled when the first ends.
    private struct CallerSubmitting {
        let manager = SessionManager(configuration: .limited(to: 1))
        let runner: RequestListRunner
        let createdOnCaller = Protected<[Int: Bool]>([:])
        let firstEnded = DispatchSemaphore(value: 0)
        let subscription: EventBus.Subscription

        init(_ input: RunnerInput) throws {
            var options = RunnerOptions(concurrency: 1, lookahead: 2)
            options.callerSubmitsAhead = true
            runner = try RequestListRunner(manager: manager, inputs: [input], options: options)
            let caller = pthread_self()
            let created = createdOnCaller, firstEnded = firstEnded
            runner.onTaskCreated = { id, _ in created.withLock { $0[Int(id.rawValue)] = pthread_equal(pthread_self(), caller) != 0 } }
            subscription = manager.bus.subscribe { event in
                if event.task.rawValue == 1, event.isTerminal { firstEnded.signal() }
            }
        }
    }

    /// `callerSubmitsAhead`: the caller's `submitAhead()` creates the next requests on its own thread; the
    /// engine creates them itself only when the tasks it holds would leave a slot empty, so a caller that
    /// stops calling never stalls the run.
    func testWhenTheCallerSubmitsAheadTheEngineCreatesRequestsOnlyWhenItsSlotsWouldGoEmpty() throws {
        // The second is slow: the test calls submitAhead() while it runs, with two seconds to spare.
        let requests = (1...7).map { "GET {{base}}/delay/\($0 == 2 ? "2" : "0.3")?n=\($0)" }.joined(separator: "\n\n###\n")
        let run = try CallerSubmitting(input(requests))
        defer { run.subscription.cancel(); run.manager.invalidate() }
        let recorder = EventRecorder(bus: run.manager.bus)
        let outcome = try XCTUnwrap(waitForOutcome(run.runner, whileRunning: {
            XCTAssertEqual(run.createdOnCaller.snapshot, [1: true, 2: true, 3: true], "start: one running and two ahead")
            XCTAssertEqual(run.firstEnded.wait(timeout: .now() + 10), .success)
            // The engine still holds two (one now running): it left the fourth to the caller.
            run.runner.submitAhead()
            XCTAssertEqual(run.createdOnCaller.snapshot[4], true, "created by the caller's submitAhead")
            // The caller submits nothing more: the engine creates the rest when it is about to run out.
        }))
        let results = outcome.results
        XCTAssertEqual(results.compactMap(\.httpStatus), Array(repeating: 200, count: 7))
        let created = run.createdOnCaller.snapshot
        XCTAssertEqual(created.keys.sorted(), Array(1...7))
        XCTAssertEqual((5...7).filter { created[$0] == true }, [], "5 to 7 were created on the engine thread")
        try recorder.waitForEnd(of: results.compactMap(\.task), timeout: 10)
        let events = recorder.events
        XCTAssertEqual(events.compactMap(\.createdDescription).map(\.url.query), (1...7).map { "n=\($0)" }, "created in list order")
        // The engine created the fifth (one ahead) once the fourth, the last it held, started: not before,
        // and not so late that a slot went empty.
        let fifthCreated = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 5 && $0.name == .created })
        let thirdEnded = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 3 && $0.isTerminal })
        let fourthEnded = try XCTUnwrap(events.firstIndex { $0.task.rawValue == 4 && $0.isTerminal })
        XCTAssertGreaterThan(fifthCreated, thirdEnded)
        XCTAssertLessThan(fifthCreated, fourthEnded)
    }

    /// A list with checks (or scripts) is submitted by the engine's side as before: `submitAhead()` does
    /// nothing, so no script or check runs on the caller's thread, which must stay free for signals.
    func testWithChecksTheCallerDoesNotSubmitAhead() throws {
        let requests = (1...4).map { "GET {{base}}/delay/\($0 == 2 ? "2" : "0.3")?n=\($0)\nHTTP 200\n" }.joined(separator: "\n")
        let run = try CallerSubmitting(input(requests, format: .hurl))
        defer { run.subscription.cancel(); run.manager.invalidate() }
        let outcome = try XCTUnwrap(waitForOutcome(run.runner, whileRunning: {
            XCTAssertEqual(run.firstEnded.wait(timeout: .now() + 10), .success)
            run.runner.submitAhead() // the second runs for two seconds and the third is held: the fourth could go ahead
        }))
        XCTAssertEqual(outcome.results.compactMap(\.httpStatus), [200, 200, 200, 200])
        XCTAssertEqual(outcome.summary.testsPassed, 4)
        XCTAssertEqual(run.createdOnCaller.snapshot, [1: true, 2: true, 3: true, 4: false], "three at start, the fourth by the engine's side")
    }

    func testRepeatReplaysTheWholeListThatManyTimes() throws {
        let (outcome, _) = try run("""
            GET {{base}}/get?r=a

            ###
            GET {{base}}/status/204
            """, options: RunnerOptions(concurrency: 2, repeatCount: 3))
        XCTAssertEqual(outcome.results.count, 6)
        XCTAssertEqual(server.requestCount(path: "/get"), 3)
        XCTAssertEqual(server.requestCount(path: "/status/204"), 3)
        XCTAssertEqual(Set(outcome.results.map(\.item.iteration)), [0, 1, 2])
    }

    func testAChainedBodyOverTheLimitIsNotReadBackAndItsReferenceSaysWhy() throws {
        let size = RequestListRunner.chainedBodyLimit + 1000
        let (outcome, _) = try run("""
            # @name big
            GET {{base}}/bytes/\(size)

            ###
            GET {{base}}/anything/status?code={{big.response.status}}

            ###
            GET {{base}}/anything/body?first={{big.response.body}}
            """, options: RunnerOptions(concurrency: 1))
        XCTAssertEqual(outcome.results.count, 3)
        XCTAssertEqual(outcome.results.first { $0.item.spec == 1 }?.httpStatus, 200, "its status and headers are still there")
        let bodyReference = try XCTUnwrap(outcome.results.first { $0.item.spec == 2 })
        guard case .notSent(let reason) = bodyReference.status else { return XCTFail("expected notSent, got \(bodyReference.status)") }
        XCTAssertTrue(reason.contains("over the 16 MB"), reason)
    }

    /// Runs 12 slow requests, interrupts the run (what SIGINT does) once three responses arrived, and sums it up.
    private func interruptedRun(_ manager: SessionManager, options: RunnerOptions) throws -> RunSummary {
        let requests = (1...12).map { "GET {{base}}/drip?numbytes=2&duration=30&n=\($0)" }.joined(separator: "\n\n###\n")
        let runner = try RequestListRunner(manager: manager, inputs: [input(requests)], options: options)
        let started = DispatchSemaphore(value: 0)
        let responses = Protected(0)
        let subscription = manager.bus.subscribe { event in
            if event.name == .response, responses.withLock({ $0 += 1; return $0 }) == 3 { started.signal() }
        }
        defer { subscription.cancel() }
        let result = Protected<RunOutcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        runner.start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success, "three requests in flight")
        runner.cancelAll()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        return RunSummary(results: try XCTUnwrap(result.snapshot).results)
    }

    func testAnInterruptedRunCountsEveryPlannedRequest() throws {
        let manager = SessionManager()
        defer { manager.invalidate() }
        let summary = try interruptedRun(manager, options: RunnerOptions(concurrency: 3))
        XCTAssertEqual(summary.total, 12, "every planned request is counted (68 of 112 were before)")
        XCTAssertEqual(summary.cancelled, 3)
        XCTAssertEqual(summary.interrupted, 9)
        XCTAssertTrue(summary.lines[0].hasPrefix("12 requests: 0 completed, 0 failed, 3 cancelled, 9 not sent (interrupted)"), summary.lines[0])
    }

    func testAnInterruptedRunCountsRequestsHandedOverAheadButNotStartedAsNotSent() throws {
        let manager = SessionManager(configuration: .limited(to: 3))
        defer { manager.invalidate() }
        let summary = try interruptedRun(manager, options: RunnerOptions(concurrency: 3, lookahead: 3))
        XCTAssertEqual(summary.total, 12)
        XCTAssertEqual(summary.cancelled, 3, "only the three that had started")
        XCTAssertEqual(summary.interrupted, 9, "the three held ahead and the six not handed over were never sent")
        XCTAssertEqual(server.requestCount(path: "/drip"), 3)
    }

    func testDependentOfFailedRequestIsNotSentAndSaysWhy() throws {
        let (outcome, events) = try run("""
            # @name login
            GET http://127.0.0.1:1/login

            ###
            GET {{base}}/anything/profile?token={{login.response.body.$.token}}

            ###
            GET {{base}}/get?independent=1
            """, options: RunnerOptions(concurrency: 1))
        XCTAssertEqual(outcome.results.count, 3)
        let dependent = try XCTUnwrap(outcome.results.first { $0.item.spec == 1 })
        XCTAssertNil(dependent.task)
        guard case .notSent(let reason) = dependent.status else { return XCTFail("expected notSent, got \(dependent.status)") }
        XCTAssertTrue(reason.contains("'login'") && reason.contains("failed"), reason)
        XCTAssertEqual(server.requestCount(path: "/anything/profile"), 0)
        XCTAssertEqual(server.requestCount(path: "/get"), 1)
        XCTAssertEqual(events.filter { $0.name == .created }.count, 2, "no task is created for the request not sent")
        XCTAssertEqual(RunSummary(results: outcome.results).failed, 2)
    }

    func testUnknownVariableIsReportedBeforeAnythingIsSent() throws {
        let manager = SessionManager()
        defer { manager.invalidate() }
        let list = try input("GET {{base}}/get\n\n###\nGET {{base}}/anything/{{nope}}\n")
        XCTAssertThrowsError(try RequestListRunner(manager: manager, inputs: [list])) { error in
            XCTAssertTrue("\(error)".contains("unknown variable 'nope'"), "\(error)")
        }
        XCTAssertEqual(server.requestLog.count, 0)
    }

    func testPerRequestTimeoutFailsTheTaskWithTimedOut() throws {
        let (outcome, _) = try run("""
            # @timeout 0.5
            GET {{base}}/delay/3
            """)
        guard case .failed(let error) = try XCTUnwrap(outcome.results.first).status else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .timedOut)
    }

    func testOnTaskCreatedMapsEachTaskToItsResolvedRequest() throws {
        let mapped = Protected([Int: String]())
        let (outcome, _) = try run("GET {{base}}/get?a=1\n\n###\nPOST {{base}}/post\n\nhello\n") { runner in
            runner.onTaskCreated = { id, request in mapped.withLock { $0[id.rawValue] = "\(request.method) \(request.url.path)" } }
        }
        XCTAssertEqual(outcome.results.count, 2)
        XCTAssertEqual(mapped.snapshot, [1: "GET /get", 2: "POST /post"])
    }

    func testCancelAllCancelsTasksInFlightAndStartsNoMore() throws {
        let manager = SessionManager()
        defer { manager.invalidate() }
        let resumed = DispatchSemaphore(value: 0)
        let subscription = manager.bus.subscribe { event in if event.name == .resumed { resumed.signal() } }
        defer { subscription.cancel() }
        let runner = try RequestListRunner(
            manager: manager, inputs: [input("GET {{base}}/drip?numbytes=100&duration=20\n\n###\nGET {{base}}/get\n")])
        let result = Protected<RunOutcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        runner.start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        XCTAssertEqual(resumed.wait(timeout: .now() + 10), .success)
        runner.cancelAll()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let outcome = try XCTUnwrap(result.snapshot)
        XCTAssertTrue(outcome.wasCancelled)
        XCTAssertEqual(outcome.results.map(\.status), [.cancelled, .interrupted], "the one never sent is counted as such")
        XCTAssertEqual(server.requestCount(path: "/get"), 0)
    }
}
