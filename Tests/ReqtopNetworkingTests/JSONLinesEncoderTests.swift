import Foundation
import ReqtopNetworking
import ReqtopTestSupport
import XCTest

/// The hand-written JSON Lines encoder writes exactly what `JSONSerialization` writes for the same schema.
final class JSONLinesEncoderTests: XCTestCase {
    /// The schema as a `[String: Any]` through `JSONSerialization` with sorted keys.
    private func reference(_ event: TaskEvent) -> String {
        var object: [String: Any] = ["event": event.name.rawValue, "task": event.task.rawValue, "time": event.time]
        func pairs(_ headers: [HTTPHeader]) -> [[String]] { headers.map { [$0.name, $0.value] } }
        switch event.kind {
        case .created(let d):
            object["method"] = d.method
            object["url"] = d.url.absoluteString
            object["headers"] = pairs(d.request.headers)
            if let name = d.name { object["name"] = name }
        case .resumed, .suspended, .cancelled: break
        case .requestSent(let head):
            object["method"] = head.method
            object["url"] = head.url.absoluteString
            object["version"] = head.httpVersion
            object["headers"] = pairs(head.headers)
        case .redirected(let hop):
            object["status"] = hop.status
            object["from"] = hop.from.absoluteString
            object["to"] = hop.to.absoluteString
            object["headers"] = pairs(hop.response.headers)
        case .response(let head):
            object["status"] = head.status
            object["headers"] = pairs(head.headers)
        case .progress(let p):
            object["direction"] = p.direction.rawValue
            object["completed"] = p.completed
            object["total"] = p.total
        case .completed(let c):
            func round(_ v: Double) -> Double { v < 0 ? -1 : (v * 1000).rounded() / 1000 }
            let t = c.timings
            object["status"] = c.response.status
            object["bytes"] = c.bytes
            object["timings"] = ["redirect": round(t.redirect), "dns": round(t.dns), "connect": round(t.connect), "tls": round(t.tls), "send": round(t.send),
                                 "wait": round(t.wait), "receive": round(t.receive), "total": round(t.total)]
        case .failed(let f):
            object["error"] = ["code": f.error.code.rawValue, "message": f.error.message]
        case .test(let result):
            object["name"] = result.name
            object["passed"] = result.passed
            if let message = result.message { object["message"] = message }
        case .scriptLog(let log):
            object["level"] = log.level.rawValue
            object["message"] = log.text
        case .message(let m):
            object["format"] = m.format.rawValue
            object["index"] = m.index
            object["data"] = m.data
            object["size"] = m.size
            if let name = m.event { object["name"] = name }
            if let id = m.id { object["id"] = id }
            if let retry = m.retry { object["retry"] = retry }
            if !m.isWhole { object["partial"] = true }
            if !m.isComplete { object["incomplete"] = true }
            if let direction = m.direction { object["direction"] = direction.rawValue }
            if let opcode = m.opcode { object["opcode"] = opcode }
            if let code = m.closeCode { object["closeCode"] = code }
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func testEveryEventKindMatchesJSONSerializationByteForByte() {
        for event in eventsOfEveryKind() {
            XCTAssertEqual(JSONLinesEncoder.line(for: event, redaction: nil), reference(event), "\(event.name)")
        }
    }

    /// A batch buffer holds exactly each event's line and a newline, batch after batch — also after an
    /// exceptional batch made it let its memory go — with secrets hidden as `line(for:)` hides them.
    func testABatchBufferHoldsTheLinesOfItsEvents() {
        let secret = HTTPRequest(method: "GET", url: HTTPURL(string: "http://h.test/?a=1")!,
                                 headers: [HTTPHeader(name: "Authorization", value: "Bearer s3cr3t")])
        let events = eventsOfEveryKind() + [TaskEvent(task: TaskID(rawValue: 99), time: 1, kind: .created(TaskDescription(kind: .data, name: nil, request: secret)))]
        let redaction = SecretPolicy().redaction
        let buffer = JSONLinesBuffer(capacity: 64, keptCapacity: 4096)
        for batch in [Array(events.prefix(3)), events, Array(events.suffix(5)), []] {
            for event in batch { buffer.append(event, redaction: redaction) }
            let written = buffer.withBytes { String(decoding: $0, as: UTF8.self) }
            XCTAssertEqual(written, batch.map { JSONLinesEncoder.line(for: $0, redaction: redaction) + "\n" }.joined())
            XCTAssertFalse(written.contains("s3cr3t"))
            buffer.removeAll()
        }
    }

    private func eventsOfEveryKind() -> [TaskEvent] {
        let url = HTTPURL(string: "http://127.0.0.1:8080/a/b?q=1&r=%20x&s=[1]")!
        let odd = "quote \" backslash \\ slash / tab \t nl \n cr \r bs \u{8} ff \u{c} nul \u{0} esc \u{1b} del \u{7f} é 😀 \u{2028}"
        let head = HTTPResponseHead(url: url, httpVersion: "1.1", status: 200, reason: "OK", headers: [
            HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Content-Type", value: "application/json"),
            HTTPHeader(name: "set-cookie", value: "b=2"), HTTPHeader(name: "X-Item-10", value: odd),
            HTTPHeader(name: "X-Item-9", value: ""), HTTPHeader(name: "content-length", value: "5"), HTTPHeader(name: "ETag", value: "\"x\""),
        ])
        var events: [TaskEvent] = []
        for (i, time) in [0, 1.5, 2, 1_764_443_000.123456, 1_764_443_000, 1e-7, 0.30000000000000004, 1e22, -0.0, -3, -2.5, 1e15, 999_999_999_999_999, 9_007_199_254_740_992,
                                 0.001, 0.0015, 0.000999, 0.123, 12.5, -0.25, 1.000001, 123456.000001, 999_999_999.999999, 1e9 + 0.5, 0.05, 1_764_443_000.000001,
                                 4_294_967_295.999999, 4_294_967_296.5, 8_589_934_591.999999].enumerated() {
            let id = TaskID(rawValue: i + 1)
            events += [
                TaskEvent(task: id, time: time, kind: .created(TaskDescription(kind: .data, name: i % 2 == 0 ? odd : nil, request: HTTPRequest(
                    method: "POST", url: url, headers: [HTTPHeader(name: "X-Dup", value: odd), HTTPHeader(name: "x-dup", value: "2")])))),
                TaskEvent(task: id, time: time, kind: .requestSent(RequestHead(url: url, method: "wHat", target: url.requestTarget,
                                                                               httpVersion: "HTTP/1.1", headers: head.headers, size: 99))),
                TaskEvent(task: id, time: time, kind: .resumed), TaskEvent(task: id, time: time, kind: .suspended),
                TaskEvent(task: id, time: time, kind: .cancelled(nil)),
                TaskEvent(task: id, time: time, kind: .redirected(RedirectHop(status: 302, from: url, to: HTTPURL(string: "https://h.test/ö")!, response: head))),
                TaskEvent(task: id, time: time, kind: .response(head)),
                TaskEvent(task: id, time: time, kind: .progress(TransferProgress(direction: .download, completed: Int64(i) * 1000, total: -1))),
                TaskEvent(task: id, time: time, kind: .completed(TaskCompletion(
                    response: head, body: nil, bytes: 1 << 40, timings: PhaseTimings(dns: 0.0004, connect: 1.23456, tls: -1, send: time,
                                                                                   wait: 100, receive: 2.5e-5, total: 1e9),
                    redirects: [], serializer: "raw", serializedValue: nil, serializationError: nil))),
                TaskEvent(task: id, time: time, kind: .failed(TaskFailure(error: TransferError(code: .timedOut, message: odd), response: nil,
                                                                         bytes: 0, timings: nil, redirects: []))),
                TaskEvent(task: id, time: time, kind: .test(TestResult(name: odd, passed: i % 2 == 0, message: i % 2 == 0 ? nil : odd))),
                TaskEvent(task: id, time: time, kind: .scriptLog(ScriptLog(level: i % 2 == 0 ? .log : .error, text: odd))),
                TaskEvent(task: id, time: time, kind: .message(StreamMessage(
                    format: StreamMessage.Format.allCases[i % 3], index: i + 1, event: i % 2 == 0 ? odd : nil, id: i % 3 == 0 ? odd : nil,
                    retry: i % 4 == 0 ? 3000 : nil, data: odd, size: 10_000 * i, isWhole: i % 2 == 0, isComplete: i % 5 != 0))),
                TaskEvent(task: id, time: time, kind: .message(StreamMessage(WebSocketMessage(
                    direction: i % 2 == 0 ? .send : .receive, opcode: [1, 2, 8, 9, 10][i % 5], payload: Data(odd.utf8), size: odd.utf8.count + i,
                    closeCode: i % 5 == 2 ? 1000 + i : nil), index: i))),
            ]
        }
        return events
    }

    /// Numbers of whole microseconds (libcurl's timings in milliseconds, times) are written from their
    /// digits without a string: the same bytes as `JSONSerialization`, at every magnitude.
    func testNumbersOfWholeMicrosecondsAreWrittenAsJSONSerializationWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for exponent in -4...16 {
            let scale = pow(10.0, Double(exponent))
            for _ in 0..<300 {
                let micros = Double(Int64.random(in: 1...max(2, Int64(min(scale, 9e15))), using: &generator))
                for time in [micros / 1_000_000, micros / 1000, -micros / 1_000_000, (micros / 1000).rounded() / 1000] {
                    let event = TaskEvent(task: TaskID(rawValue: 1), time: time, kind: .resumed)
                    XCTAssertEqual(JSONLinesEncoder.line(for: event, redaction: nil), reference(event), "\(time)")
                }
            }
        }
    }
}
