import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
import XCTest

/// docs/events.md is the schema of what leaves the process as JSON: every field the encoders write,
/// for every kind of event, is named there (and every kind has a row).
final class EventSchemaTests: XCTestCase {
    private static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/events.md")

    /// One event of every kind, each with every optional part present.
    private static func samples() -> [TaskEvent] {
        let url = "http://h.test/a"
        let head = CannedEvents.head(200, url)
        let timings = PhaseTimings(dns: 1, connect: 2, tls: -1, send: 0.5, wait: 3, receive: 1.5, total: 8)
        let hop = RedirectHop(status: 302, from: HTTPURL(string: url)!, to: HTTPURL(string: "http://h.test/b")!, response: head, timings: timings)
        let failure = TaskFailure(error: TransferError(code: .timedOut, message: "slow", curlCode: 28), response: head, bytes: 3, timings: timings,
                                  redirects: [hop], partialBody: .data(Data("abc".utf8)),
                                  sentBody: StreamedRequestBody(kept: Data("a=1".utf8), size: 3),
                                  connection: TransferConnection(localPort: 54322, remoteAddress: "::1", remotePort: 8443))
        var created = CannedEvents.created(1, "POST", url, name: "login")
        if case .created(var description) = created.kind {
            description.request.body = .data(Data("{}".utf8))
            description.request.options = HTTPRequest.Options(timeout: 2.5, followRedirects: false, insecure: true, omittedHeaders: ["Accept"])
            created = TaskEvent(task: created.task, time: created.time, kind: .created(description))
        }
        var completed = CannedEvents.completed(1, status: 200, url: url, bytes: 11, totalMs: 8, at: 7)
        if case .completed(var completion) = completed.kind {
            completion.redirects = [hop]
            completion.serializationError = "not JSON"
            completion.sentBody = StreamedRequestBody(kept: Data("a=1".utf8), size: 3) // a proxied client's body
            completion.connection = TransferConnection(localPort: 54321, remoteAddress: "127.0.0.1", remotePort: 443)
            completed.kind = .completed(completion)
        }
        return [
            created,
            CannedEvents.simple(1, .resumed, at: 1), CannedEvents.simple(1, .suspended, at: 2),
            CannedEvents.simple(1, .requestSent(CannedEvents.sent("POST", url)), at: 3),
            CannedEvents.simple(1, .redirected(hop), at: 4),
            CannedEvents.simple(1, .response(head), at: 5),
            CannedEvents.simple(1, .progress(TransferProgress(direction: .download, completed: 1, total: 2)), at: 6),
            completed,
            CannedEvents.simple(1, .failed(failure), at: 8),
            CannedEvents.simple(1, .cancelled(failure), at: 9),
            CannedEvents.simple(1, .test(TestResult(name: "status is 200", passed: false, message: "got 404")), at: 10),
            CannedEvents.simple(1, .scriptLog(ScriptLog(level: .error, text: "api.http:12:3: TypeError")), at: 11),
            CannedEvents.simple(1, .message(StreamMessage(format: .sse, index: 3, event: "update", id: "7", retry: 3000, data: #"{"a":1}"#,
                                                          size: 900_000, isWhole: false, isComplete: false)), at: 5.5),
            CannedEvents.simple(1, .message(StreamMessage(WebSocketMessage(direction: .send, opcode: 8, payload: Data([0x03, 0xE8]) + Data("bye".utf8),
                                                                           size: 5, closeCode: 1000), index: 4)), at: 5.6),
        ]
    }

    /// Words in backquotes that are nested fields or values, not top-level fields.
    private static let nestedOrValues: Set<String> = ["redirect", "dns", "connect", "tls", "send", "wait", "receive", "total", "code",
                                                      "message", "upload", "download", "data", "resumed", "bodyOmitted",
                                                      "timeout", "followRedirects", "maxRedirects", "trustedRedirects",
                                                      "insecure", "compressed", "omittedHeaders", "curl", "null",
                                                      "serializationError", "bodyFile", "destination", "log", "error", "client.test", "client.assert", "client.log",
                                                      "sse", "ndjson", "json-array", "event:", "id:", "retry:", "text/event-stream",
                                                      "Content-Type", "Content-Length", "localPort", "remote", "remotePort",
                                                      "websocket", "send", "receive", "reqtop proxy"]

    /// The backquoted words of the row of `event` in the table under `heading`.
    private func documented(_ event: String, under heading: String) throws -> Set<String> {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "\n## ").first { $0.hasPrefix(heading) }, heading)
        let row = try XCTUnwrap(section.split(separator: "\n").first { $0.hasPrefix("| `\(event)` |") }, "\(heading): no row for \(event)")
        return Set(row.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    private func keys(_ line: String) throws -> Set<String> {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        return Set(object.keys)
    }

    func testEveryFieldOfEveryEventIsDocumented() throws {
        var checked: Set<String> = []
        /// The plain fields the samples of each event wrote, together (a WebSocket message has fields an SSE event has not).
        var written: [String: Set<String>] = [:]
        defer {
            // What the page names at the top level of a row is written by some sample of it (nested names — timings' phases — aside).
            for (name, plain) in written {
                let topLevel = ((try? documented(name, under: "JSON Lines")) ?? []).filter { !$0.contains(" ") }
                let claimed = topLevel.subtracting(plain).subtracting(Self.nestedOrValues).subtracting(TaskEvent.Name.allCases.map(\.rawValue))
                XCTAssertEqual(claimed, [], "\(name): docs/events.md names fields JSON Lines does not write")
            }
        }
        for event in Self.samples() {
            let name = event.name.rawValue
            let plain = try keys(JSONLinesEncoder.line(for: event, redaction: nil))
            let stream = try keys(EventStreamEncoder.line(for: event, bodyLimit: 1 << 20, redaction: nil))
            XCTAssertTrue(plain.isSuperset(of: ["event", "task", "time"]), name)
            let undocumented = plain.subtracting(["event", "task", "time"]).subtracting(try documented(name, under: "JSON Lines"))
            XCTAssertEqual(undocumented, [], "\(name): JSON Lines fields missing from docs/events.md")
            written[name, default: []].formUnion(plain)
            XCTAssertTrue(stream.isSuperset(of: plain), "\(name): the stream keeps every plain field")
            let added = stream.subtracting(plain)
            guard !added.isEmpty else { checked.insert(name); continue } // the stream writes what JSON Lines writes
            let streamRow = try documented(name, under: "Full lines")
            XCTAssertEqual(added.subtracting(streamRow), [], "\(name): stream fields missing from docs/events.md")
            let streamClaimed = streamRow.filter { !$0.contains(" ") }.subtracting(stream).subtracting(Self.nestedOrValues)
                .subtracting(TaskEvent.Name.allCases.map(\.rawValue))
            XCTAssertEqual(streamClaimed, [], "\(name): docs/events.md names stream fields the stream does not write")
            checked.insert(name)
        }
        XCTAssertEqual(checked, Set(TaskEvent.Name.allCases.map(\.rawValue)), "a sample of every kind")
    }

    /// JSON Lines are written straight from the event (`PlainLineWriter`), not through an
    /// `EventLine`: for every kind of event, in clear and redacted — credentials in headers, a token
    /// in a query and in user-info, a private value in a log line and a test message — the bytes are
    /// those of the `EventLine` at its plain detail, the schema's one definition.
    func testJSONLinesAreTheBytesOfThePlainEventLine() throws {
        let secret = "url=http://user:pw@h.test/a?token=abc&page=2"
        let headers = [HTTPHeader(name: "Authorization", value: "Bearer tok-PRIVATE-1"), HTTPHeader(name: "Cookie", value: "a=1; b=2"),
                       HTTPHeader(name: "Set-Cookie", value: "sid=s3cr3t; Path=/"), HTTPHeader(name: "X-Echo", value: "has tok-PRIVATE-1 in it")]
        var secretive: [TaskEvent] = []
        for event in Self.samples() {
            var event = event
            switch event.kind {
            case .created(var description):
                description.request.url = HTTPURL(string: "http://user:pw@h.test/a?token=abc&page=2")!
                description.request.headers = headers
                event.kind = .created(description)
            case .requestSent(var head):
                head.headers = headers
                head.url = HTTPURL(string: "http://h.test/a?api_key=k1")!
                event.kind = .requestSent(head)
            case .redirected(var hop):
                hop.from = HTTPURL(string: "http://h.test/a?password=p")!
                hop.response.headers = headers
                event.kind = .redirected(hop)
            case .response(var head):
                head.headers = headers
                event.kind = .response(head)
            case .scriptLog(var log):
                log.text = "token is tok-PRIVATE-1 (\(secret))"
                event.kind = .scriptLog(log)
            case .test(var result):
                result.message = "expected tok-PRIVATE-1"
                event.kind = .test(result)
            case .message(var message):
                message.data = #"{"access_token": "tok-PRIVATE-1", "n": 1}"#
                event.kind = .message(message)
            default:
                break
            }
            secretive.append(event)
        }
        let policy = SecretPolicy()
        policy.register(["tok-PRIVATE-1"])
        for redaction in [nil, SecretPolicy().redaction, policy.redaction] {
            for event in Self.samples() + secretive {
                var direct: [UInt8] = []
                JSONLinesEncoder.append(event, redaction: redaction, to: &direct)
                var reference: [UInt8] = []
                EventLine(event, detail: .plain, redaction: redaction).write(to: &reference)
                XCTAssertEqual(String(decoding: direct, as: UTF8.self), String(decoding: reference, as: UTF8.self),
                               "\(event.name) redacted: \(redaction != nil)")
            }
        }
        var hidden: [UInt8] = []
        JSONLinesEncoder.append(secretive[0], redaction: policy.redaction, to: &hidden)
        XCTAssertFalse(String(decoding: hidden, as: UTF8.self).contains("tok-PRIVATE-1"), "the check above compared redacted lines")
    }

    /// The one table writes its fields in sorted order (what `JSONSerialization` with sorted keys
    /// writes, and what readers that compare lines expect).
    func testTheFieldTableIsInSortedOrder() {
        let keys = EventLine.fields.map { "\($0.key)" }
        XCTAssertEqual(keys, keys.sorted())
        XCTAssertEqual(Set(keys).count, keys.count, "each key once")
    }

    /// Every kind, at both details: written, read back by the same table, written again — the same
    /// line; and read back as an event, it is written as the same line once more.
    func testEveryEventKindRoundTripsThroughTheOneSchema() throws {
        let samples = Self.samples()
        let redirect = try XCTUnwrap(samples.first { $0.name == .redirected })
        for detail in [EventLine.Detail.plain, .full(bodyLimit: 1 << 20, keptBy: "test")] {
            for event in samples {
                // A reader that has seen the redirect an end event refers to, as it would have in a stream.
                var reader = EventLineReader()
                if Self.redirects(of: event) > 0 { _ = reader.event(from: EventLine(redirect, detail: detail, redaction: nil)) }
                let line = EventLine(event, detail: detail, redaction: nil)
                let read = try XCTUnwrap(EventLine(json: Data(line.text.utf8)), line.text)
                XCTAssertEqual(read, line, "\(event.name) \(detail)")
                let again = try XCTUnwrap(reader.event(from: read), line.text)
                XCTAssertEqual(EventLine(again, detail: detail, redaction: nil).text, line.text, "\(event.name) \(detail)")
            }
        }
    }

    private static func redirects(of event: TaskEvent) -> Int {
        switch event.kind {
        case .completed(let completion): completion.redirects.count
        case .failed(let failure), .cancelled(let failure?): failure.redirects.count
        default: 0
        }
    }

    /// A full line keeps what a viewer needs; a plain line leaves it out.
    func testFullLinesKeepWhatPlainLinesLeaveOut() throws {
        let failed = try XCTUnwrap(Self.samples().first { $0.name == .failed })
        let plain = EventLine(failed, detail: .plain, redaction: nil)
        let full = EventLine(failed, detail: .full(bodyLimit: 2, keptBy: "test"), redaction: nil)
        XCTAssertNil(plain.body)
        XCTAssertNil(plain.bytes)
        XCTAssertEqual(full.bytes, 3)
        XCTAssertNil(full.body, "3 bytes are over a 2-byte limit")
        XCTAssertEqual(full.bodyOmitted, "3 bytes, over the test's 2-byte body limit")
        XCTAssertEqual(full.hopTimings?.count, 1)
    }
}
