import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Responses no well-behaved server sends, each from a reproducer (Fixtures/Regressions): the task
/// fails with the code that says what happened — never a success, never a misleading code.
final class HostileResponseTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Regressions")

    private func fail(with response: [UInt8]) throws -> TransferError? {
        let server = try CannedResponseServer(response: response)
        defer { server.stop() }
        let manager = SessionManager()
        defer { manager.invalidate() }
        let result = try awaitCompletion { done in
            try? manager.dataTask(with: HTTPRequest(url: HTTPURL(string: server.url)!)) { done($0.result) }.resume()
        }
        if case .failure(let error) = result { return error }
        return nil
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    /// The status line as the server wrote it: version, code, and a reason phrase with its inner
    /// spaces (or none at all).
    func testStatusLinesAreReadAsWritten() throws {
        let cases: [(line: String, version: String, status: Int, reason: String)] = [
            ("HTTP/1.1 200 OK", "1.1", 200, "OK"),
            ("HTTP/1.1 299 Moved  Somewhere else", "1.1", 299, "Moved  Somewhere else"),
            ("HTTP/1.1 204", "1.1", 204, ""),
            ("HTTP/1.0 418 I'm a teapot", "1.0", 418, "I'm a teapot"),
        ]
        for expected in cases {
            let server = try CannedResponseServer(response: Array("\(expected.line)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            defer { server.stop() }
            let manager = SessionManager()
            defer { manager.invalidate() }
            let head = try awaitCompletion { done in
                try? manager.dataTask(with: HTTPRequest(url: HTTPURL(string: server.url)!)) { done($0.head) }.resume()
            }
            XCTAssertEqual(head?.httpVersion, expected.version, expected.line)
            XCTAssertEqual(head?.status, expected.status, expected.line)
            XCTAssertEqual(head?.reason, expected.reason, expected.line)
            XCTAssertEqual(head?.headers.first, HTTPHeader(name: "Content-Length", value: "0"), expected.line)
        }
    }

    func testANonHTTPBannerIsABadServerResponseNotABadURL() throws {
        let error = try XCTUnwrap(try fail(with: fixture("non-http-banner.response")))
        XCTAssertEqual(error.code, .badServerResponse, error.description)
        XCTAssertTrue(error.message.contains("did not answer in HTTP"), error.message)
    }

    func testDifferentContentLengthsFailInsteadOfPickingOne() throws {
        let error = try XCTUnwrap(try fail(with: fixture("two-content-lengths.response")), "accepted as 200 with 7 bytes before")
        XCTAssertEqual(error.code, .badServerResponse)
        XCTAssertTrue(error.message.contains("(5, 7)"), error.message)
    }

    func testAContentLengthBeyond63BitsFails() throws {
        let error = try XCTUnwrap(try fail(with: fixture("content-length-1e23.response")), "accepted as 200 with 5 bytes before")
        XCTAssertEqual(error.code, .badServerResponse)
        XCTAssertTrue(error.message.contains("not a usable number"), error.message)
    }

    func testAnEndlessHeaderLineIsABadServerResponseNotOutOfMemory() throws {
        let response = Array("HTTP/1.1 200 OK\r\nX-Huge: ".utf8) + [UInt8](repeating: 0x61, count: 1 << 20)
            + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        let error = try XCTUnwrap(try fail(with: response))
        XCTAssertEqual(error.code, .badServerResponse, error.description)
        XCTAssertTrue(error.message.contains("response head is too large"), error.message)
        XCTAssertFalse(error.message.contains("Out of memory") || error.message.contains("libcurl:"), "reqtop's own message only: \(error.message)")
    }

    /// A server answering 256 MB of zeros gzipped (about 250 KB: the bomb was 10 MB → 10 GiB,
    /// the same ratio), and a session that asks for compressed responses; `fetch` starts the task.
    private func withGzipBomb<T: Sendable>(_ fetch: (SessionManager, HTTPRequest, @escaping @Sendable (T) -> Void) -> Void) throws -> T {
        let zeros = Gzip.compress([UInt8](repeating: 0, count: 256 << 20))
        let response = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(zeros.count)\r\n\r\n".utf8) + zeros
        let server = try CannedResponseServer(response: response)
        defer { server.stop() }
        var configuration = SessionConfiguration()
        configuration.compression = true
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        return try awaitCompletion { done in fetch(manager, HTTPRequest(url: HTTPURL(string: server.url)!), done) }
    }

    func testAGzipBombIsRefusedWithATypedErrorBeforeItFillsTheDisk() throws {
        let outcome: (TransferError?, Int64, Bool) = try withGzipBomb { manager, request, done in
            try? manager.dataTask(with: request) { done(($0.error, $0.bytes, $0.body == nil)) }.resume()
        }
        XCTAssertEqual(outcome.0?.code, .bodyTooLarge, outcome.0?.description ?? "completed: a 256 MB body kept")
        XCTAssertTrue(outcome.0?.message.contains("compression bomb") ?? false)
        XCTAssertLessThan(outcome.1, 128 << 20, "stopped soon after the check starts (64 MB), not at 256 MB")
        XCTAssertTrue(outcome.2, "the spilled part is removed")
    }

    /// The same limit when the body is neither held nor spilled: a streaming task whose consumer
    /// discards it (a headless run without --har) fails with the same typed error.
    func testAGzipBombIsRefusedWhenTheBodyIsDiscardedToo() throws {
        let outcome: (TransferError?, Int64) = try withGzipBomb { manager, request, done in
            try? manager.streamTask(with: request, consumer: DiscardingConsumer(), streamOptions: StreamOptions(keptBodyBytes: 0, verbatimHead: false),
                                    serializer: ResponseBodySerializer()) { done(($0.error, $0.bytes)) }.resume()
        }
        XCTAssertEqual(outcome.0?.code, .bodyTooLarge, outcome.0?.description ?? "completed: 256 MB decoded and discarded")
        XCTAssertTrue(outcome.0?.message.contains("compression bomb") ?? false)
        XCTAssertLessThan(outcome.1, 128 << 20, "stopped soon after the check starts")
    }

    func testAHundredThousandHeadersAreABadServerResponseNotAReset() throws {
        let fields = (0..<100_000).map { "X-\($0): 1\r\n" }.joined()
        let error = try XCTUnwrap(try fail(with: Array("HTTP/1.1 200 OK\r\n\(fields)Content-Length: 0\r\n\r\n".utf8)))
        XCTAssertEqual(error.code, .badServerResponse, error.description)
        XCTAssertTrue(error.message.contains("response head is too large"), error.message)
        XCTAssertFalse(error.message.contains("Out of memory") || error.message.contains("libcurl:"), "reqtop's own message only: \(error.message)")
    }
}

/// The default limits: a stalled server fails the task; a suspended task is not timed.
final class IdleTimeoutTests: EmbeddedServerTestCase {
    /// The result of a GET of `path` on the embedded server with `idleTimeout` (the default when nil).
    private func get(_ path: String, idleTimeout: Double? = nil, timeout: Double = 60) throws -> Result<Data, TransferError> {
        var configuration = SessionConfiguration()
        if let idleTimeout { configuration.idleTimeout = idleTimeout }
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        return try awaitCompletion(timeout: timeout) { done in
            try? manager.dataTask(with: HTTPRequest(url: HTTPURL(string: server.url(path).absoluteString)!)) { done($0.result) }.resume()
        }
    }

    func testAStalledServerTimesOutAfterTheIdleTimeout() throws {
        let configuration = SessionConfiguration()
        XCTAssertEqual(configuration.idleTimeout, 30, "on by default")
        XCTAssertEqual(configuration.connectTimeout, 10)
        guard case .failure(let error) = try get("/fault/stall?seconds=60", idleTimeout: 1) else {
            return XCTFail("a stalled server must not hang the task")
        }
        XCTAssertEqual(error.code, .timedOut)
        XCTAssertTrue(error.message.hasPrefix("no byte arrived or left for "), error.message)
        XCTAssertTrue(error.message.contains("(the idle timeout is 1 s"), error.message)
        // The measured idle time is stated, and it is at least the limit.
        let measured = error.message.dropFirst("no byte arrived or left for ".count).prefix { $0 != " " }
        XCTAssertGreaterThanOrEqual(Double(measured) ?? 0, 1, error.message)
    }

    /// Head bytes count one by one, not a line at a time: with a 2 s idle timeout, a head whose
    /// lines take 4–5 s each to arrive (a byte every 0.25 s) completes.
    func testHeadBytesCountOneByOneNotALineAtATime() throws {
        let result = try get("/fault/slow-head?interval=0.25", idleTimeout: 2)
        guard case .success(let data) = result else { return XCTFail("a slow head is not an idle connection: \(result)") }
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "ok")
    }

    /// The idle timeout is the time since the last byte either way, head bytes included (not a
    /// minimum speed, not body bytes only): a head arriving one byte a second for 40 s, with the
    /// default 30 s idle timeout, completes.
    func testAHeadArrivingOneBytePerSecondForFortySecondsCompletes() throws {
        let result = try get("/fault/slow-head?interval=1", timeout: 90)
        guard case .success(let data) = result else { return XCTFail("a slow server is not an idle one: \(result)") }
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "ok")
    }

    func testASuspendedTaskIsNotTimedOut() throws {
        var configuration = SessionConfiguration()
        configuration.idleTimeout = 1
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(url: HTTPURL(string: server.url("/drip?numbytes=4&duration=0.4").absoluteString)!))
        try task.resume()
        try recorder.wait { $0.contains { $0.task == task.id && $0.name == .response } }
        try task.suspend()
        try recorder.wait { $0.contains { $0.task == task.id && $0.name == .suspended } }
        Thread.sleep(forTimeInterval: 2.5) // the behaviour under test: longer than the idle timeout while suspended
        XCTAssertEqual(task.state, .suspended)
        try task.resume()
        try recorder.waitForEnd(of: [task.id])
        XCTAssertEqual(recorder.terminalEvent(of: task.id)?.name, .completed)
    }
}
