import Foundation
import ReqtopNetworking
import ReqtopNetworkingTesting
@testable import ReqtopTasks
import XCTest

/// A finished task's record is packed after a while (`RecordTable`) and read back on demand: what
/// comes back is what went in, field for field, and the store answers as if nothing was packed.
final class RecordPackingTests: XCTestCase {
    /// Every kind of lifecycle the store keeps: a redirected POST with a body and every option, tests
    /// and logs, a connection; a failure with a partial body; a cancel; small and large bodies.
    static func events(_ id: Int, variant: Int) -> [TaskEvent] {
        let url = "http://api.test:8080/items/\(id)?page=\(id % 7)"
        var request = HTTPRequest(method: variant % 2 == 0 ? "POST" : "get", url: HTTPURL(string: url)!,
                                  headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Id", value: "\(id)")],
                                  body: variant % 3 == 0 ? .data(Data("{\"n\":\(id)}".utf8)) : .file(path: "/tmp/body \(id).json"))
        request.options = HTTPRequest.Options(timeout: 2.5, followRedirects: true, maxRedirects: 3, trustedRedirects: false, insecure: nil,
                                              compressed: true, omittedHeaders: variant % 2 == 0 ? ["User-Agent"] : [], httpVersion: .http2)
        let task = TaskID(rawValue: id)
        func at(_ t: Double, _ kind: TaskEvent.Kind) -> TaskEvent { TaskEvent(task: task, time: 100 + Double(id) + t, kind: kind) }
        let moved = HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: 302, reason: "Found",
                                     headers: [HTTPHeader(name: "Location", value: "/final/\(id)")], size: 60)
        let final = HTTPURL(string: "http://api.test:8080/final/\(id)")!
        var hopTimings = PhaseTimings(dns: 0.5, connect: 1, tls: -1, send: 0.1, wait: 2, receive: 0.2, total: 3.8)
        hopTimings.redirect = 0.25
        let hop = RedirectHop(status: 302, from: HTTPURL(string: url)!, to: final, response: moved, timings: hopTimings)
        let response = HTTPResponseHead(url: final, httpVersion: variant % 4 == 0 ? "2" : "1.1", status: 200 + variant % 3, reason: "",
                                        headers: [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8"),
                                                  HTTPHeader(name: "Set-Cookie", value: "s=\(id); Path=/")], size: 90)
        let body = Data(repeating: UInt8(ascii: "a") + UInt8(id % 26), count: variant % 5 == 0 ? 5000 : 40 + id % 50)
        let connection = TransferConnection(localPort: 40000 + id, remoteAddress: "::1", remotePort: 8080)
        var events = [
            TaskEvent(task: task, time: 100 + Double(id), kind: .created(TaskDescription(kind: variant % 3 == 1 ? .upload : .data,
                                                                                            name: variant % 2 == 0 ? "item \(id) ✓" : nil, request: request))),
            at(0.001, .resumed), at(0.002, .suspended), at(0.003, .resumed),
            at(0.004, .requestSent(RequestHead(url: HTTPURL(string: url)!, method: request.method, target: "/items/\(id)?page=\(id % 7)",
                                               httpVersion: "HTTP/1.1", headers: request.headers, size: 120, hop: 0))),
            at(0.005, .progress(TransferProgress(direction: .upload, completed: 10, total: 10))),
            at(0.006, .redirected(hop)),
            at(0.007, .requestSent(RequestHead(url: final, method: "GET", target: "/final/\(id)", httpVersion: "HTTP/1.1", headers: [], size: 40, hop: 1))),
            at(0.008, .response(response)),
            at(0.009, .progress(TransferProgress(direction: .download, completed: 5, total: -1))),
            at(0.010, .test(TestResult(name: "status is 200", passed: variant % 2 == 0, message: variant % 2 == 0 ? nil : "got \(id)"))),
            at(0.011, .scriptLog(ScriptLog(level: variant % 2 == 0 ? .log : .error, text: "line \(id)\n\u{1B}[31mred"))),
        ]
        switch variant % 3 {
        case 0:
            events.append(at(0.02, .completed(TaskCompletion(
                response: response, body: .data(body), bytes: Int64(body.count),
                timings: PhaseTimings(dns: 0.1, connect: 0.2, tls: 0.3, send: 0.4, wait: 0.5, receive: 0.6, total: 2.1), redirects: [hop],
                serializer: "json", serializedValue: nil, serializationError: variant % 2 == 0 ? nil : "not JSON at 1:1",
                sentBody: variant % 2 == 0 ? StreamedRequestBody(kept: Data("abc".utf8), size: 9) : nil, connection: connection))))
        case 1:
            events.append(at(0.02, .failed(TaskFailure(
                error: TransferError(code: .connectionReset, message: "reset by peer", curlCode: 56), response: response,
                bytes: 3, timings: nil, redirects: [hop], partialBody: .data(Data("par".utf8)), connection: connection))))
        default:
            events.append(at(0.02, .cancelled(nil)))
        }
        return events
    }

    /// The same events into a store that packs every finished task at once and one that packs none:
    /// every record, listing, sort and filter agrees.
    func testAPackedRecordReadsBackAsTheWholeOne() throws {
        let packing = TaskStore(finishedKeptWhole: 0), whole = TaskStore(finishedKeptWhole: .max)
        for id in 1...90 {
            let events = Self.events(id, variant: id)
            packing.apply(events)
            whole.apply(events)
        }
        XCTAssertEqual(packing.packed.tasks, 90)
        XCTAssertEqual(whole.packed.tasks, 0)
        for id in 1...90 {
            let task = TaskID(rawValue: id)
            let read = try XCTUnwrap(packing.record(task)), kept = try XCTUnwrap(whole.record(task))
            XCTAssertEqual(Self.dump(read), Self.dump(kept), "task \(id)")
            XCTAssertEqual(read.body?.count, kept.body?.count)
        }
        for filter in ["", "final", "items/1", "!status:200", "status:2xx", "method:GET", "method:post", "state:failed", "host:API",
                       "name:item", "!name:✓", "status:201 !state:cancelled"] {
            for key in TaskSort.allCases {
                for descending in [false, true] {
                    let parsed = try TaskFilter(parsing: filter), order = TaskOrder(key, descending: descending)
                    let a = packing.listing(filter: parsed, order: order, now: 500), b = whole.listing(filter: parsed, order: order, now: 500)
                    XCTAssertEqual(packing.records(a, rows: 0..<a.count).map(\.id), whole.records(b, rows: 0..<b.count).map(\.id),
                                   "filter '\(filter)', \(order)")
                }
            }
        }
    }

    /// Every field of every type the codec writes is one it knows: a type that gains a field fails
    /// here until the codec writes it.
    func testTheCodecWritesEveryFieldOfEveryTypeItPacks() {
        let record = TaskStore(finishedKeptWhole: .max).applying(Self.events(3, variant: 0)).record(TaskID(rawValue: 3))!
        let fields: [(Any, Int)] = [
            (record, 26), (record.request, 5), (record.request.options, 8), (record.sentHeads[0], 7), (record.response!, 6),
            (record.redirects[0], 5), (record.timings!, 8), (record.tests[0], 3), (record.scriptLogs[0], 2), (record.connection!, 3),
            (record.timeline[0], 3), (TransferError(code: .other, message: ""), 3), (TransferProgress(direction: .upload, completed: 0, total: 0), 3),
        ]
        for (value, count) in fields {
            XCTAssertEqual(Mirror(reflecting: value).children.count, count, "\(type(of: value)) has fields the codec does not write")
        }
    }

    /// Damaged packed bytes, cut anywhere or with any byte changed, are an error, never a crash.
    func testCutOrDamagedPackedBytesAreAnErrorNotACrash() {
        let record = TaskStore(finishedKeptWhole: .max).applying(Self.events(4, variant: 0)).record(TaskID(rawValue: 4))!
        var bytes: [UInt8] = []
        XCTAssertTrue(RecordCodec.append(record, to: &bytes))
        for cut in 0..<bytes.count {
            XCTAssertThrowsError(try bytes.withUnsafeBytes { try RecordCodec.decode(UnsafeRawBufferPointer(rebasing: $0[..<cut])) })
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4000 {
            var damaged = bytes
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            if round % 2 == 0 {
                damaged[at] = UInt8.random(in: 0...255, using: &generator)
            } else { // a run of 0xFF: a count or length read as a huge number
                for index in at..<min(bytes.count, at + Int.random(in: 1...9, using: &generator)) { damaged[index] = 0xFF }
            }
            _ = try? damaged.withUnsafeBytes { try RecordCodec.decode($0) }
        }
    }

    /// An event that reaches a task after it was packed (a script's late test, a cancel) unpacks it;
    /// it is packed again later, with the event.
    func testALateEventReachesAPackedTask() throws {
        let store = TaskStore(finishedKeptWhole: 2)
        for id in 1...6 { store.apply(CannedEvents.lifecycle(id, "GET", "http://t.test/\(id)", status: 200, bytes: 11, totalMs: 1)) }
        XCTAssertEqual(store.packed.tasks, 4)
        let before = try XCTUnwrap(store.record(TaskID(rawValue: 1)))
        store.apply([CannedEvents.simple(1, .test(TestResult(name: "late", passed: false)), at: 200)])
        let after = try XCTUnwrap(store.record(TaskID(rawValue: 1)))
        XCTAssertEqual(after.tests.map(\.name), ["late"])
        XCTAssertEqual(after.revision, before.revision + 1)
        XCTAssertEqual(after.timeline.count, before.timeline.count + 1)
        XCTAssertEqual(store.testTally.failed, 1)
        for id in 7...9 { store.apply(CannedEvents.lifecycle(id, "GET", "http://t.test/\(id)", status: 200, bytes: 11, totalMs: 1)) }
        XCTAssertEqual(store.packed.tasks, 7, "task 1 was packed again")
        XCTAssertEqual(store.record(TaskID(rawValue: 1))?.tests.map(\.name), ["late"])
    }

    /// A body too large to pack stays beside the packed record and counts against the budget: the
    /// oldest goes first, and the record says it was released.
    func testALargeBodyOfAPackedTaskIsKeptApartAndReleasedPastTheBudget() throws {
        let store = TaskStore(bodyBudget: 12_000, finishedKeptWhole: 0)
        for id in stride(from: 5, through: 15, by: 5) { store.apply(Self.events(id, variant: 15)) } // 5000-byte bodies, completed
        XCTAssertEqual(store.packed.tasks, 3)
        XCTAssertEqual(store.record(TaskID(rawValue: 5))?.bodyReleased, true)
        XCTAssertNil(store.record(TaskID(rawValue: 5))?.body)
        XCTAssertEqual(store.record(TaskID(rawValue: 10))?.body?.count, 5000)
        XCTAssertEqual(store.record(TaskID(rawValue: 15))?.body?.count, 5000)
        XCTAssertEqual(store.record(TaskID(rawValue: 10))?.bodyReleased, false)
    }

    /// A recorder takes ended tasks from the front, packed or not, whole; what stays is addressable.
    func testRemovingPackedTasksGivesThemBackWhole() throws {
        let store = TaskStore(finishedKeptWhole: 1)
        for id in 1...5 { store.apply(Self.events(id, variant: id)) }
        store.apply([CannedEvents.created(6, "GET", "http://t.test/6")])
        for id in 7...8 { store.apply(Self.events(id, variant: id)) }
        let reference = TaskStore(finishedKeptWhole: .max)
        for id in 1...5 { reference.apply(Self.events(id, variant: id)) }
        let taken = store.removeEndedPrefix()
        XCTAssertEqual(taken.map(\.id.rawValue), [1, 2, 3, 4, 5])
        for record in taken { XCTAssertEqual(Self.dump(record), Self.dump(reference.record(record.id)!)) }
        XCTAssertEqual(store.record(TaskID(rawValue: 7))?.url.absoluteString, "http://api.test:8080/items/7?page=0")
        let listing = store.listing(filter: try TaskFilter(parsing: "items"), order: TaskOrder(.path), now: 500)
        XCTAssertEqual(store.records(listing, rows: 0..<listing.count).map(\.id.rawValue), [7, 8])
    }

    /// Packed, a session of similar tasks takes a fraction of its records' encoded size.
    func testSimilarTasksPackSmall() {
        let store = TaskStore(finishedKeptWhole: 0)
        var encoded = 0
        for id in 1...3000 {
            let events = CannedEvents.lifecycle(id, "GET", "http://127.0.0.1:8080/api/items/\(id)", status: 200, bytes: 64, totalMs: 2)
            store.apply(events)
            var bytes: [UInt8] = []
            _ = RecordCodec.append(store.record(TaskID(rawValue: id))!, to: &bytes)
            encoded += bytes.count
        }
        XCTAssertEqual(store.packed.tasks, 3000)
        XCTAssertLessThan(store.packed.bytes * 3, encoded, "deflated blocks: \(store.packed.bytes) B for \(encoded) B encoded")
    }

    static func dump(_ record: TaskRecord) -> String {
        var text = ""
        Swift.dump(record, to: &text)
        // Where a Data's or a class instance's bytes are differs from copy to copy; what they hold does not.
        return text.replacingOccurrences(of: #"0x[0-9a-f]+|pointerValue: [0-9]+"#, with: "(address)", options: .regularExpression)
    }
}

extension TaskStore {
    func applying(_ events: [TaskEvent]) -> TaskStore {
        apply(events)
        return self
    }
}
