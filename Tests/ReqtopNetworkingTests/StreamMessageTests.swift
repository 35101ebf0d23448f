import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Streamed responses become `message` events as they arrive, against the embedded server's `/sse`
/// and `/ndjson`.
final class StreamMessageTests: EmbeddedServerTestCase {
    private func messages(_ recorder: EventRecorder, of task: TaskID) -> [(time: Double, message: StreamMessage)] {
        recorder.events(of: task).compactMap { event in if case .message(let m) = event.kind { (event.time, m) } else { nil } }
    }

    func testServerSentEventsArePostedOneByOneAsTheyArriveBeforeTheEnd() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let task = manager.dataTask(with: HTTPRequest(server.url("/sse?count=5&interval=0.1&event=update")))
        try task.resume()
        try recorder.waitForEnd(of: [task.id])

        let names = recorder.names(of: task.id).filter { $0 != .progress }
        XCTAssertEqual(names, [.created, .resumed, .request, .response, .message, .message, .message, .message, .message, .completed])
        let found = messages(recorder, of: task.id)
        XCTAssertEqual(found.map(\.message.index), [1, 2, 3, 4, 5])
        XCTAssertEqual(found.map(\.message.data), (1...5).map { #"{"n":\#($0),"of":5}"# })
        XCTAssertEqual(found.map(\.message.id), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(Set(found.map(\.message.event)), ["update"])
        XCTAssertTrue(found.allSatisfy { $0.message.format == .sse && $0.message.isWhole && $0.message.isComplete })
        // Live: posted as each arrived (0.1 s apart), not all at the end.
        let spread = try XCTUnwrap(found.last?.time) - XCTUnwrap(found.first?.time)
        XCTAssertGreaterThan(spread, 0.3, "the five events arrived over 0.4 s")
        guard case .completed(let completion) = recorder.terminalEvent(of: task.id)?.kind else { return XCTFail("completed") }
        let body = String(decoding: try XCTUnwrap(completion.body?.loadData()), as: UTF8.self)
        XCTAssertTrue(body.hasPrefix("id: 1\nevent: update\ndata: {\"n\":1,\"of\":5}\n\n"), "the body is kept whole too: \(body.prefix(80))")
    }

    func testNDJSONLinesAndAHugeEventKeepTheirStartAndMemoryStaysBounded() throws {
        var configuration = SessionConfiguration()
        configuration.keptStreamMessageBytes = 1000
        let manager = SessionManager(configuration: configuration)
        let recorder = EventRecorder(bus: manager.bus)
        let lines = manager.dataTask(with: HTTPRequest(server.url("/ndjson?count=3")))
        let huge = manager.dataTask(with: HTTPRequest(server.url("/sse?count=2&interval=0&size=20000000")))
        try lines.resume()
        try huge.resume()
        try recorder.waitForEnd(of: [lines.id, huge.id])

        XCTAssertEqual(messages(recorder, of: lines.id).map(\.message.data), (1...3).map { #"{"n":\#($0),"event":"tick"}"# })
        XCTAssertEqual(Set(messages(recorder, of: lines.id).map(\.message.format)), [.ndjson])
        let big = messages(recorder, of: huge.id).map(\.message)
        XCTAssertEqual(big.count, 2)
        XCTAssertEqual(big.map(\.size), [20_000_000, 20_000_000])
        XCTAssertEqual(big.map(\.data.utf8.count), [1000, 1000], "only the first 1000 bytes of each are kept")
        XCTAssertEqual(big.map(\.isWhole), [false, false])
        XCTAssertTrue(big[0].data.hasPrefix(#"{"n":1,"of":2,"pad":"xxx"#))
    }

    func testAStreamCutByTheServerEndsWithAnIncompleteMessageAndANonStreamHasNone() throws {
        let manager = SessionManager()
        let recorder = EventRecorder(bus: manager.bus)
        let server = try CannedResponseServer(response: Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
                                                             + "data: one\n\ndata: two\ndata: and a half").utf8))
        defer { server.stop() }
        let cut = manager.dataTask(with: HTTPRequest(URL(string: server.url + "events")!))
        let plain = manager.dataTask(with: HTTPRequest(self.server.url("/json")))
        try cut.resume()
        try plain.resume()
        try recorder.waitForEnd(of: [cut.id, plain.id])
        let found = messages(recorder, of: cut.id).map(\.message)
        XCTAssertEqual(found.map(\.data), ["one", "two\nand a half"])
        XCTAssertEqual(found.map(\.isComplete), [true, false], "the second had no blank line: shown, and said to be cut")
        XCTAssertEqual(messages(recorder, of: plain.id).count, 0, "a JSON body with Content-Length is one document")
    }
}
