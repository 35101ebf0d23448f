import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopTestSupport
import XCTest

/// HTTP/2 against nginx: by ALPN over TLS (the default, as curl), by prior knowledge over cleartext
/// (h2c), the head as the HEADERS frame carried it, and streams sharing one connection.
final class HTTP2Tests: XCTestCase {
    private func nginxTLS() throws -> (url: URL, ca: String) {
        guard let url = TestEnvironment.nginxTLSURL, let ca = TestEnvironment.nginxCAFile else {
            if TestEnvironment.isCI { XCTFail("nginx (TLS) is not running: run the tests through `make test`") }
            throw XCTSkip("nginx (TLS) is not running (use `make test`, which starts it)")
        }
        return (url, ca)
    }

    private func run(_ requests: [HTTPRequest], configure: (inout SessionConfiguration) -> Void = { _ in })
        throws -> (EventRecorder, [TaskID]) {
        var configuration = SessionConfiguration()
        configure(&configuration)
        let manager = SessionManager(configuration: configuration)
        addTeardownBlock { manager.invalidate() }
        let recorder = EventRecorder(bus: manager.bus)
        let tasks = requests.map { manager.dataTask(with: $0) }
        for task in tasks { try task.resume() }
        try recorder.waitForEnd(of: tasks.map(\.id))
        return (recorder, tasks.map(\.id))
    }

    private func sent(_ recorder: EventRecorder, _ task: TaskID) -> RequestHead? {
        recorder.events(of: task).compactMap { if case .requestSent(let head) = $0.kind { head } else { nil } }.last
    }

    private func completion(_ recorder: EventRecorder, _ task: TaskID) -> TaskCompletion? {
        if case .completed(let completion)? = recorder.terminalEvent(of: task)?.kind { completion } else { nil }
    }

    func testOverTLSHTTP2IsChosenByALPNAndTheHeadIsShownAsTheFrameCarriedIt() throws {
        let (tls, ca) = try nginxTLS()
        var request = HTTPRequest(tls.appendingPathComponent("files/10k.bin"))
        request.headers = [HTTPHeader(name: "X-Trace-Id", value: "abc"), HTTPHeader(name: "Connection", value: "keep-alive")]
        var old = HTTPRequest(tls.appendingPathComponent("files/100b.bin"))
        old.options.httpVersion = .http1_1
        let (recorder, tasks) = try run([request, old]) { $0.caFile = ca }

        let head = try XCTUnwrap(sent(recorder, tasks[0]))
        XCTAssertEqual(head.httpVersion, "HTTP/2")
        XCTAssertEqual(Array(head.headers.prefix(4)), [
            HTTPHeader(name: ":method", value: "GET"), HTTPHeader(name: ":path", value: "/files/10k.bin"),
            HTTPHeader(name: ":scheme", value: "https"), HTTPHeader(name: ":authority", value: "127.0.0.1:\(tls.port!)"),
        ])
        XCTAssertTrue(head.headers.contains(HTTPHeader(name: "x-trace-id", value: "abc")), "names go lower-case: \(head.headers)")
        XCTAssertFalse(head.headers.contains { $0.name.lowercased() == "host" || $0.name.lowercased() == "connection" },
                       "HTTP/2 has no Host or Connection field: \(head.headers)")
        let done = try XCTUnwrap(completion(recorder, tasks[0]))
        XCTAssertEqual(done.response.httpVersion, "2")
        XCTAssertEqual(done.response.status, 200)
        XCTAssertEqual(done.bytes, 10240)
        XCTAssertNotNil(done.connection)

        let oldHead = try XCTUnwrap(sent(recorder, tasks[1]))
        XCTAssertEqual(oldHead.httpVersion, "HTTP/1.1", "asked for HTTP/1.1")
        XCTAssertEqual(oldHead.headers.first?.name, "Host")
        XCTAssertEqual(completion(recorder, tasks[1])?.response.httpVersion, "1.1")
    }

    func testCleartextPriorKnowledgeSpeaksHTTP2ToAnH2COnlyServerAgainAndAgain() throws {
        guard let h2c = TestEnvironment.nginxH2CURL else {
            if TestEnvironment.isCI { XCTFail("nginx (h2c) is not running: run the tests through `make test`") }
            throw XCTSkip("nginx (h2c) is not running (use `make test`)")
        }
        let requests = (0..<3).map { _ in HTTPRequest(h2c.appendingPathComponent("files/100b.bin")) }
        let (recorder, tasks) = try run(requests) { $0.httpVersion = .http2PriorKnowledge; $0.maxConcurrentTasks = 1 }
        for task in tasks {
            XCTAssertEqual(sent(recorder, task)?.httpVersion, "HTTP/2")
            XCTAssertEqual(sent(recorder, task)?.headers.first { $0.name == ":scheme" }?.value, "http")
            XCTAssertEqual(completion(recorder, task)?.response.httpVersion, "2", "every request, not only the first (curl#10634)")
            XCTAssertEqual(completion(recorder, task)?.bytes, 100)
        }
        // Without asking, the same server does not answer HTTP/1.1: a clear failure, not a hang.
        let (plain, plainTasks) = try run([HTTPRequest(h2c.appendingPathComponent("files/100b.bin"))])
        guard case .failed(let failure)? = plain.terminalEvent(of: plainTasks[0])?.kind else { return XCTFail("failed") }
        XCTAssertEqual(failure.error.code, .badServerResponse, failure.error.message)
    }

    func testConcurrentRequestsAreStreamsOnOneConnection() throws {
        let (tls, ca) = try nginxTLS()
        let requests = (0..<6).map { _ in HTTPRequest(tls.appendingPathComponent("files/1m.bin")) }
        let (recorder, tasks) = try run(requests) { $0.caFile = ca; $0.maxConcurrentTasks = 6 }
        let connections = tasks.compactMap { completion(recorder, $0)?.connection }
        XCTAssertEqual(connections.count, 6)
        XCTAssertEqual(Set(connections).count, 1, "six HTTP/2 streams, one connection: \(connections)")
        let versions = Set(tasks.compactMap { completion(recorder, $0)?.response.httpVersion })
        XCTAssertEqual(versions, ["2"])
    }
}
