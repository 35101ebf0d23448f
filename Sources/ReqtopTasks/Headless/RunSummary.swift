
/// The end-of-run summary: counts by outcome, latency percentiles of completed tasks, bytes.
package struct RunSummary: Sendable, Hashable {
    /// Requests that got a response (any HTTP status).
    package var completed: Int
    /// Requests whose transfer failed, plus requests not sent because a dependency failed.
    package var failed: Int
    /// Of `failed`, the requests that were never sent.
    package var notSent: Int
    package var cancelled: Int
    /// Requests never sent because the run was interrupted first.
    package var interrupted: Int
    /// Completed requests with HTTP status ≥ 400.
    package var httpErrors: Int
    /// Latency of completed requests in ms (nearest-rank percentiles); nil when none completed.
    package var p50: Double?
    package var p95: Double?
    package var max: Double?
    /// Body bytes received by all tasks.
    package var totalBytes: Int64
    /// The scripts' tests that passed and failed, and the scripts that failed (threw, timed out).
    package var testsPassed: Int
    package var testsFailed: Int
    package var scriptErrors: Int

    /// Every planned request: completed, failed (sent or not), cancelled, or not sent because of an interrupt.
    package var total: Int { completed + failed + cancelled + interrupted }

    package init(results: [RunResult]) {
        var tally = RunTally()
        for result in results { tally.add(result) }
        self = tally.summary
    }

    init(tally: RunTally) {
        // Sorted in place by `RunTally.summarize()`, which the runner calls: then no copy is made.
        let latencies = zip(tally.latencies, tally.latencies.dropFirst()).allSatisfy { $0 <= $1 }
            ? tally.latencies : tally.latencies.sorted()
        func percentile(_ p: Double) -> Double? {
            guard !latencies.isEmpty else { return nil }
            let rank = Int((p / 100 * Double(latencies.count)).rounded(.up))
            return Double(latencies[Swift.max(0, Swift.min(latencies.count - 1, rank - 1))])
        }
        completed = tally.completed
        failed = tally.failed
        notSent = tally.notSent
        cancelled = tally.cancelled
        interrupted = tally.interrupted
        httpErrors = tally.httpErrors
        p50 = percentile(50)
        p95 = percentile(95)
        max = latencies.last.map(Double.init)
        totalBytes = tally.bytes
        testsPassed = tally.testsPassed
        testsFailed = tally.testsFailed
        scriptErrors = tally.scriptErrors
    }

    /// The process exit code: 0 when everything completed (and every test passed), 1 when anything
    /// failed or was cancelled or a script failed (with `failOnStatus`, HTTP ≥ 400 too), 4 when every
    /// request completed but a test failed, 130 after an interrupt.
    package func exitCode(failOnStatus: Bool, interrupted: Bool) -> Int32 {
        if interrupted { return 130 }
        if failed > 0 || cancelled > 0 || self.interrupted > 0 || scriptErrors > 0 { return 1 }
        if failOnStatus && httpErrors > 0 { return 1 }
        if testsFailed > 0 { return 4 }
        return 0
    }

    /// The summary as readable lines:
    /// ```
    /// 12 requests: 9 completed, 2 failed, 1 cancelled; 1 with HTTP status >= 400
    /// latency p50 45 ms, p95 1210 ms, max 2.0 s
    /// received 1.2 MB
    /// ```
    package var lines: [String] {
        var first = "\(total) \(total == 1 ? "request" : "requests"): \(completed) completed, \(failed) failed"
        if notSent > 0 { first += " (\(notSent) not sent)" }
        first += ", \(cancelled) cancelled"
        if interrupted > 0 { first += ", \(interrupted) not sent (interrupted)" }
        first += "; \(httpErrors) with HTTP status >= 400"
        var lines = [first]
        if let p50, let p95, let max {
            lines.append("latency p50 \(Milliseconds.format(p50)), p95 \(Milliseconds.format(p95)), "
                         + "max \(Milliseconds.format(max))")
        }
        lines.append("received \(ByteCount.format(totalBytes))")
        if testsPassed + testsFailed + scriptErrors > 0 {
            var tests = "tests: \(testsPassed) passed, \(testsFailed) failed"
            if scriptErrors > 0 { tests += "; \(scriptErrors) script\(scriptErrors == 1 ? "" : "s") failed" }
            lines.append(tests)
        }
        return lines
    }

    /// `lines` joined, each ending in a newline.
    package var text: String {
        // Not `joined()`: the standard library's unspecialized form looked up a conformance by scanning
        // every one in the binary, a tenth of a millisecond at the end of every run.
        lines.reduce(into: "") { text, line in
            text += line
            text += "\n"
        }
    }
}

/// The counts of a run as results arrive, without keeping the results (a 100,000-request run keeps
/// 4 bytes per completed request, its latency in milliseconds as a `Float`: 7 significant digits, more
/// than the summary shows).
package struct RunTally: Sendable {
    var completed = 0, failed = 0, notSent = 0, cancelled = 0, interrupted = 0, httpErrors = 0
    var latencies: [Float] = []
    var bytes: Int64 = 0
    var testsPassed = 0, testsFailed = 0, scriptErrors = 0

    package init() {}

    package mutating func add(_ result: RunResult) {
        bytes += result.bytes
        for test in result.tests {
            if test.passed { testsPassed += 1 } else { testsFailed += 1 }
        }
        if result.scriptError != nil { scriptErrors += 1 }
        switch result.status {
        case .completed(let status):
            completed += 1
            if status >= 400 { httpErrors += 1 }
            if let ms = result.durationMilliseconds { latencies.append(Float(ms)) }
        case .failed: failed += 1
        case .notSent:
            failed += 1
            notSent += 1
        case .cancelled: cancelled += 1
        case .interrupted: interrupted += 1
        }
    }

    package var summary: RunSummary { RunSummary(tally: self) }

    /// The summary, sorting the latencies in place first (100,000 latencies are not copied to be sorted).
    package mutating func summarize() -> RunSummary {
        latencies.sort()
        return RunSummary(tally: self)
    }
}
