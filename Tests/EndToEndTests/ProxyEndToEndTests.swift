import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// `reqtop proxy` as a program: a gigabyte through it with flat memory, 200 clients at once with a
/// bounded number of threads, and its headless output.
final class ProxyEndToEndTests: EmbeddedServerTestCase {
    private var proxy: RunningProcess!
    private var port = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: reqtopExecutable) else {
            XCTFail("\(reqtopExecutable) is missing: run `swift build` before `swift test` (make test does)")
            throw XCTSkip("reqtop binary missing")
        }
        port = unusedLoopbackPort()
        proxy = try RunningProcess(reqtopExecutable, ["proxy", "--headless", "--events", "jsonl", "--port", String(port)])
        XCTAssertTrue(waitForListener(port: port), "reqtop proxy listens on \(port)\n\(proxy.stderrText)")
    }

    override func tearDown() {
        proxy?.send(signal: SIGTERM)
        _ = proxy?.waitForExit(timeout: 10)
        super.tearDown()
    }

    private func shell(_ command: String) throws -> SubprocessResult { try Self.shell(command) }

    private static func shell(_ command: String) throws -> SubprocessResult {
        try Subprocess.run("/bin/sh", ["-c", command], timeout: 300)
    }

    func testAGigabyteGoesThroughByteForByteWithFlatMemory() throws {
        let url = server.url("/bytes/1073741824?seed=11").absoluteString
        XCTAssertEqual(try shell("curl -sS -o /dev/null -x http://127.0.0.1:\(port) \(server.url("/get").absoluteString)").status, 0)
        let baseline = try XCTUnwrap(ProcessStatus(pid: proxy.processIdentifier))
        let proxied = try shell("curl -sS -x http://127.0.0.1:\(port) '\(url)' | sha256sum")
        let status = try XCTUnwrap(ProcessStatus(pid: proxy.processIdentifier))
        let direct = try shell("curl -sS --noproxy '*' '\(url)' | sha256sum")
        XCTAssertEqual(proxied.stdoutText, direct.stdoutText, "byte for byte: \(proxied.stderrText)")
        XCTAssertEqual(proxied.stdoutText.count, 68)
        let growth = status.peakResidentBytes - baseline.residentBytes
        print("reqtop proxy, 1 GiB: RSS \(baseline.residentBytes >> 20) MB before, peak \(status.peakResidentBytes >> 20) MB")
        XCTAssertLessThan(growth, 16 << 20, "the body streams through: peak RSS grows by \(growth >> 20) MB, not by the body")
        let completed = try XCTUnwrap(proxy.waitForLine { $0.contains(#""event":"completed""#) && $0.contains("1073741824") })
        XCTAssertTrue(completed.contains(#""task":2"#), completed)
    }

    func testProxyAuthGives407WithoutTheCredentialsAndAnOpenAddressIsRefused() throws {
        let open = try Subprocess.run(reqtopExecutable, ["proxy", "--headless", "--host", "0.0.0.0", "--port", "0"], timeout: 30)
        XCTAssertEqual(open.status, 2, open.stderrText)
        XCTAssertTrue(open.stderrText.contains("not a loopback address") && open.stderrText.contains("--proxy-auth"), open.stderrText)

        let guardedPort = unusedLoopbackPort()
        let guarded = try RunningProcess(reqtopExecutable, ["proxy", "--headless", "--events", "jsonl", "--port", String(guardedPort),
                                                            "--proxy-auth", "ana:pw"])
        defer {
            guarded.send(signal: SIGTERM)
            _ = guarded.waitForExit(timeout: 10)
        }
        XCTAssertTrue(waitForListener(port: guardedPort), guarded.stderrText)
        let url = server.url("/get?who").absoluteString
        let refused = try shell("curl -sS -o /dev/null -w '%{http_code}' -x http://127.0.0.1:\(guardedPort) '\(url)'")
        XCTAssertEqual(refused.stdoutText, "407", refused.stderrText)
        let failed = try XCTUnwrap(guarded.waitForLine { $0.contains(#""event":"failed""#) }, guarded.stderrText)
        XCTAssertTrue(failed.contains("proxy authentication required"), failed)
        let admitted = try shell("curl -sS -o /dev/null -w '%{http_code}' -U ana:pw -x http://127.0.0.1:\(guardedPort) '\(url)'")
        XCTAssertEqual(admitted.stdoutText, "200", admitted.stderrText)
        XCTAssertEqual(server.requestLog.map(\.target), ["/get?who"], "only the authenticated request reached the server")
    }

    func testServerSentEventsThroughTheProxyArriveLiveAndAreMessageEvents() throws {
        let url = server.url("/sse?count=3&interval=0.3").absoluteString
        let started = Date()
        let proxied = try shell("curl -sS -N -x http://127.0.0.1:\(port) '\(url)'")
        XCTAssertEqual(proxied.stdoutText.components(separatedBy: "\n\n").filter { $0.contains("data: ") }.count, 3, proxied.stdoutText)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.55, "the events came 0.3 s apart")
        var lines: [String] = []
        for index in 1...3 {
            lines.append(try XCTUnwrap(proxy.waitForLine { $0.contains(#""event":"message""#) && $0.contains(#""index":\#(index),"#) },
                                       "message \(index)"))
        }
        XCTAssertTrue(lines[2].contains(#""data":"{\"n\":3,\"of\":3}""#), lines[2])
        XCTAssertTrue(lines.allSatisfy { $0.contains(#""format":"sse""#) && $0.contains(#""name":"tick""#) }, "\(lines)")
    }

    func testTwoHundredClientsAtOnceWithABoundedNumberOfThreads() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-200-\(UUID().uuidString).curl")
        defer { try? FileManager.default.removeItem(at: config) }
        let lines = (0..<200).map { "url = \"\(server.url("/delay/1?n=\($0)").absoluteString)\"\noutput = \"/dev/null\"" }
        try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        let command = "curl -sS --parallel --parallel-immediate --parallel-max 200 -x http://127.0.0.1:\(port) -w '%{http_code}\\n' -K \(config.path)"
        let result = Protected<SubprocessResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            result.withLock { $0 = try? Self.shell(command) }
            done.signal()
        }
        let started = Date()
        var peakThreads = 0
        while done.wait(timeout: .now() + 0.05) == .timedOut { // sample while the requests are in flight
            peakThreads = max(peakThreads, ProcessStatus(pid: proxy.processIdentifier)?.threads ?? 0)
        }
        let elapsed = Date().timeIntervalSince(started)
        let codes = try XCTUnwrap(result.snapshot).stdoutText.split(separator: "\n")
        XCTAssertEqual(codes.count, 200)
        XCTAssertEqual(Set(codes), ["200"], "every request answered")
        XCTAssertLessThan(elapsed, 40, "in flight together: one after another, 200 one-second requests take 200 s")
        print("reqtop proxy, 200 concurrent clients: at most \(peakThreads) threads")
        XCTAssertGreaterThan(peakThreads, 1, "sampled")
        XCTAssertLessThanOrEqual(peakThreads, 24, "one proxy thread, one engine thread, a few queues — not one per connection")
    }
}
