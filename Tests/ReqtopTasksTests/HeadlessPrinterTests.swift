import Foundation
import ReqtopNetworking
import ReqtopSync
import XCTest
import ReqtopTasks

final class TextEventFormatterTests: XCTestCase {
    private func event(_ id: Int, _ kind: TaskEvent.Kind, at time: Double = 100) -> TaskEvent {
        TaskEvent(task: TaskID(rawValue: id), time: time, kind: kind)
    }

    private func created(_ id: Int, _ url: String) -> TaskEvent {
        event(id, .created(TaskDescription(kind: .data, request: HTTPRequest(url: HTTPURL(string: url)!))))
    }

    private func head(_ status: Int, reason: String) -> HTTPResponseHead {
        HTTPResponseHead(url: HTTPURL(string: "http://h.test/")!, httpVersion: "1.1", status: status, reason: reason, headers: [])
    }

    func testCompletedLineShowsMethodURLStatusSizeAndDuration() {
        var formatter = TextEventFormatter()
        _ = formatter.line(for: created(3, "http://h.test/users?page=2"))
        let timings = PhaseTimings(dns: 1, connect: 2, tls: -1, send: 1, wait: 30, receive: 11, total: 45)
        let line = formatter.line(for: event(3, .completed(TaskCompletion(
            response: head(200, reason: "OK"), body: nil, bytes: 1229, timings: timings, redirects: [], serializer: "raw",
            serializedValue: nil, serializationError: nil))))
        XCTAssertEqual(line, "#3 GET http://h.test/users?page=2 → 200 OK 1.2 KB 45 ms")
    }

    func testFailedLineShowsErrorCodeAndMessage() {
        var formatter = TextEventFormatter()
        _ = formatter.line(for: created(4, "http://127.0.0.1:1/"))
        let line = formatter.line(for: event(4, .failed(TaskFailure(
            error: TransferError(code: .cannotConnect, message: "Couldn't connect to server"), response: nil, bytes: 0,
            timings: nil, redirects: []))))
        XCTAssertEqual(line, "#4 GET http://127.0.0.1:1/ ✗ cannotConnect: Couldn't connect to server")
    }

    func testACancelledLineSaysWhenNothingWasSent() {
        var formatter = TextEventFormatter()
        _ = formatter.line(for: created(5, "http://h.test/held"))
        XCTAssertEqual(formatter.line(for: event(5, .cancelled(nil))), "#5 GET http://h.test/held cancelled before it was sent")
        _ = formatter.line(for: created(6, "http://h.test/slow"))
        let partway = TaskFailure(error: TransferError(code: .cancelled, message: "cancelled"), response: nil, bytes: 0,
                                  timings: nil, redirects: [])
        XCTAssertEqual(formatter.line(for: event(6, .cancelled(partway))), "#6 GET http://h.test/slow cancelled")
    }

    func testRedirectLineShowsStatusAndTarget() {
        var formatter = TextEventFormatter()
        let hop = RedirectHop(status: 302, from: HTTPURL(string: "http://h.test/a")!, to: HTTPURL(string: "http://h.test/b")!,
                              response: head(302, reason: "Found"))
        XCTAssertEqual(formatter.line(for: event(2, .redirected(hop))), "#2 redirect  302 → http://h.test/b")
    }

    func testProgressIsPrintedAtMostOncePerIntervalPerTask() {
        var formatter = TextEventFormatter(progressInterval: 0.25)
        func progress(_ id: Int, _ bytes: Int64, at time: Double) -> String? {
            formatter.line(for: event(id, .progress(TransferProgress(direction: .download, completed: bytes, total: 4096)), at: time))
        }
        let printed = [progress(1, 1024, at: 10.0), progress(1, 1100, at: 10.1), progress(2, 10, at: 10.1),
                       progress(1, 2048, at: 10.2), progress(1, 3072, at: 10.3), progress(1, 4096, at: 10.5)]
        XCTAssertEqual(printed.map { $0 != nil }, [true, false, true, false, true, false])
        XCTAssertEqual(printed[0], "#1 progress  1.0 KB / 4.1 KB (25%)")
    }

    func testNetworkTextIsSanitized() {
        var formatter = TextEventFormatter()
        _ = formatter.line(for: created(1, "http://h.test/x"))
        let line = formatter.line(for: event(1, .response(head(200, reason: "OK\u{1B}]0;pwned\u{07}\u{202E}txt"))))!
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E }, line)
        XCTAssertTrue(line.hasPrefix("#1 response  200 OK␛]0;pwned"), line)
    }
}

final class HeadlessPrinterTests: RunnerTestCase {
    func testJSONLinesPrinterWritesExactlyTheEncoderLinePerEvent() throws {
        let sink = MemorySink()
        let printer = Protected<JSONLinesPrinter?>(nil)
        let (_, events) = try run("GET {{base}}/get\n\n###\nGET http://127.0.0.1:1/\n") { runner in
            let jsonl = JSONLinesPrinter(bus: runner.manager.bus, sink: sink, secrets: SecretPolicy())
            jsonl.start()
            printer.withLock { $0 = jsonl }
        }
        printer.snapshot?.stop() // prints everything posted so far
        XCTAssertEqual(sink.lines, events.map { JSONLinesEncoder.line(for: $0, redaction: SecretPolicy().redaction) })
        for line in sink.lines {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertNotNil(object["event"] as? String)
            XCTAssertNotNil(object["task"] as? Int)
            XCTAssertNotNil(object["time"] as? Double)
        }
        XCTAssertTrue(sink.lines.contains { $0.contains("\"event\":\"failed\"") && $0.contains("cannotConnect") })
    }

    func testTextPrinterPrintsLifecycleLinesAndNotSentRequests() throws {
        let sink = MemorySink()
        let printer = Protected<TextEventPrinter?>(nil)
        let (outcome, _) = try run("""
            # @name a
            GET http://127.0.0.1:1/

            ###
            GET {{base}}/get?token={{a.response.body.$.token}}

            ###
            GET {{base}}/status/404
            """) { runner in
            let text = TextEventPrinter(bus: runner.manager.bus, sink: sink)
            runner.onNotSent = { text.printNotSent($0) }
            text.start()
            printer.withLock { $0 = text }
        }
        printer.snapshot?.stop()
        XCTAssertEqual(outcome.results.count, 3)
        let lines = sink.lines
        XCTAssertTrue(lines.contains("#1 created   GET http://127.0.0.1:1/ [a]"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("#1 GET http://127.0.0.1:1/ ✗ cannotConnect: ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("-- GET {{base}}/get?token={{a.response.body.$.token}} ✗ not sent: ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("#2 GET \(server.baseURL.absoluteString)/status/404 → 404 Not Found 0 B ") },
                      "\(lines)")
    }
}

final class RunSummaryTests: XCTestCase {
    private func result(_ status: RunResultStatus, ms: Double? = nil, bytes: Int64 = 0) -> RunResult {
        RunResult(item: RunItem(list: 0, iteration: 0, spec: 0), task: nil, name: nil, method: "GET", url: "http://h.test/",
                  status: status, bytes: bytes, durationMilliseconds: ms)
    }

    func testCountsOutcomesAndNearestRankPercentilesOfCompletedTasks() {
        var results = (1...20).map { result(.completed(status: $0 == 20 ? 500 : 200), ms: Double($0 * 10), bytes: 100) }
        results.append(result(.failed(TransferError(code: .timedOut, message: "t")), ms: 5000))
        results.append(result(.cancelled))
        results.append(result(.notSent(reason: "dependency failed")))
        let summary = RunSummary(results: results)
        XCTAssertEqual(summary.completed, 20)
        XCTAssertEqual(summary.failed, 2)
        XCTAssertEqual(summary.notSent, 1)
        XCTAssertEqual(summary.cancelled, 1)
        XCTAssertEqual(summary.httpErrors, 1)
        XCTAssertEqual(summary.p50, 100)
        XCTAssertEqual(summary.p95, 190)
        XCTAssertEqual(summary.max, 200)
        XCTAssertEqual(summary.totalBytes, 2000)
        XCTAssertEqual(summary.lines[0], "23 requests: 20 completed, 2 failed (1 not sent), 1 cancelled; 1 with HTTP status >= 400")
    }

    /// The runner's tally sorts its latencies in place; one read without that sorts a copy: the same figures.
    func testPercentilesDoNotDependOnTheOrderLatenciesArrived() {
        var tally = RunTally()
        for ms in [70.0, 10, 200, 40, 150, 30, 90, 120, 20, 60, 180, 50, 110, 80, 100, 130, 190, 170, 140, 160] {
            tally.add(result(.completed(status: 200), ms: ms))
        }
        let unsorted = tally.summary
        let summarized = tally.summarize()
        for summary in [unsorted, summarized] {
            XCTAssertEqual(summary.p50, 100)
            XCTAssertEqual(summary.p95, 190)
            XCTAssertEqual(summary.max, 200)
        }
        XCTAssertEqual(tally.summary.p50, 100, "read again once sorted")
    }

    func testExitCodeFollowsOutcomesStatusOptionAndInterrupt() {
        let ok = RunSummary(results: [result(.completed(status: 404))])
        XCTAssertEqual(ok.exitCode(failOnStatus: false, interrupted: false), 0)
        XCTAssertEqual(ok.exitCode(failOnStatus: true, interrupted: false), 1)
        XCTAssertEqual(ok.exitCode(failOnStatus: false, interrupted: true), 130)
        let failed = RunSummary(results: [result(.completed(status: 200)), result(.cancelled)])
        XCTAssertEqual(failed.exitCode(failOnStatus: false, interrupted: false), 1)
    }

    /// Durations and sizes read as `%.Nf` would write them, switching unit where rounding reaches the next one.
    func testDurationsAndSizesAreFormattedAsPrintfRoundsThem() {
        XCTAssertEqual(Milliseconds.format(0), "0.0 ms")
        XCTAssertEqual(Milliseconds.format(4.24), "4.2 ms")
        XCTAssertEqual(Milliseconds.format(9.96), "10 ms")
        XCTAssertEqual(Milliseconds.format(45.4), "45 ms")
        XCTAssertEqual(Milliseconds.format(999.7), "1.00 s")
        XCTAssertEqual(Milliseconds.format(1234), "1.23 s")
        XCTAssertEqual(Milliseconds.format(61_000.5), "61.00 s")
        XCTAssertEqual(Milliseconds.format(-1), "–")
        XCTAssertEqual(Milliseconds.format(.infinity), "–")
        XCTAssertEqual(Milliseconds.format(1e300).hasSuffix(" s"), true)
        XCTAssertEqual(ByteCount.format(999), "999 B")
        XCTAssertEqual(ByteCount.format(1200), "1.2 KB")
        XCTAssertEqual(ByteCount.format(500_000), "500 KB")
        XCTAssertEqual(ByteCount.format(1_000_000_000), "1.0 GB")
    }
}
