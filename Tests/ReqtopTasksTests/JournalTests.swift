import Foundation
import ReqtopNetworking
import ReqtopRequestLists
@testable import ReqtopTasks
import ReqtopTestServer
import ReqtopTestSupport
import XCTest

/// Session journals: written as the session happens, read back into the same records.
final class JournalTests: EmbeddedServerTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-journals-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Runs a few real requests with a journal and a store watching; returns the store and the journal file.
    private func journaledSession() throws -> (TaskStore, URL) {
        let manager = SessionManager()
        let store = TaskStore()
        let subscription = store.observe(manager.bus)
        defer { subscription.stop() }
        let journal = try JournalWriter(bus: manager.bus, source: "journal test", directory: folder, bodyLimit: 1000)
        let requests = [
            HTTPRequest(url: HTTPURL(string: server.baseURL.absoluteString + "/get?x=1")!,
                        options: HTTPRequest.Options(omittedHeaders: ["Accept"])), // read back with its options
            HTTPRequest(url: HTTPURL(string: server.baseURL.absoluteString + "/redirect/2")!),
            HTTPRequest(method: "POST", url: HTTPURL(string: server.baseURL.absoluteString + "/post")!,
                        headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: .data(Data("hello".utf8))),
            HTTPRequest(url: HTTPURL(string: server.baseURL.absoluteString + "/fault/reset?after=100")!),
            HTTPRequest(url: HTTPURL(string: server.baseURL.absoluteString + "/bytes/5000")!),
        ]
        for request in requests { try manager.dataTask(with: request, options: TaskOptions(name: "n\(request.url.requestTarget.count)")).resume() }
        XCTAssertTrue(store.waitUntilSettled(timeout: 10))
        journal.close()
        return (store, journal.url)
    }

    func testAJournalReadsBackIntoTheSameRecords() throws {
        let (live, url) = try journaledSession()
        let saved = try Recording.load(url)
        XCTAssertEqual(saved.notes, [])
        XCTAssertTrue(saved.title.hasPrefix("journal test (session "), saved.title)
        let reopened = TaskStore()
        reopened.apply(saved.events)
        let before = live.allRecords, after = reopened.allRecords
        XCTAssertEqual(after.count, 5)
        for (a, b) in zip(before, after) {
            XCTAssertEqual(a.id, b.id)
            XCTAssertEqual(a.name, b.name)
            XCTAssertEqual(a.state, b.state, "\(a.url)")
            XCTAssertEqual(a.request, b.request)
            XCTAssertEqual(a.sentHeads, b.sentHeads)
            XCTAssertEqual(a.redirects, b.redirects)
            XCTAssertEqual(a.response, b.response)
            XCTAssertEqual(a.timings, b.timings)
            XCTAssertEqual(a.error, b.error)
            XCTAssertEqual(a.downloaded, b.downloaded)
            XCTAssertEqual(a.timeline.map(\.event).filter { $0 != .progress }, b.timeline.map(\.event), "the timeline, progress aside")
        }
        XCTAssertEqual(try after[2].body?.loadData(), try before[2].body?.loadData(), "the POST's echo body")
        XCTAssertEqual(after[3].state, .failed)
        XCTAssertEqual(try after[3].body?.loadData().count, 100, "the partial body of the reset")
        // 5000 bytes are over this journal's 1000-byte line limit: kept beside the journal, named in the line.
        let large = try XCTUnwrap(after[4].body)
        XCTAssertEqual(try large.loadData(), try before[4].body?.loadData(), "the body over the line limit, whole")
        let kept = Journals.bodiesFolder(of: url).appendingPathComponent("5-response")
        guard case .file(let file) = large else { return XCTFail("read back from its file") }
        XCTAssertEqual(file.url.standardizedFileURL, kept.standardizedFileURL)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int, 0o600, "private, as the journal")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(#""bodyFile":""#) && $0.contains("5-response") })
        XCTAssertFalse(lines.contains { $0.contains("bodyOmitted") })
        XCTAssertFalse(lines.contains { $0.contains(#""event":"progress""#) })

        // The session's size counts its bodies; pruning it deletes them with the journal.
        let summary = try XCTUnwrap(Journals.list(in: folder).first)
        let journalSize = Int64(try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int))
        XCTAssertEqual(summary.size, journalSize + 5000)
        XCTAssertEqual(Journals.prune(in: folder, keep: 0).map(\.id), [summary.id])
        XCTAssertFalse(FileManager.default.fileExists(atPath: Journals.bodiesFolder(of: url).path))
    }

    /// Messages a task let go of are read back from the journal by index, for that task only,
    /// however the events of other tasks are interleaved with them.
    func testStreamMessagesAreReadBackByIndexForOneTask() throws {
        let bus = EventBus()
        let writer = try JournalWriter(bus: bus, source: "t", directory: folder)
        func message(_ task: Int, _ n: Int) -> TaskEvent {
            TaskEvent(task: TaskID(rawValue: task), time: 1000 + Double(n) / 100,
                      kind: .message(StreamMessage(format: .sse, index: n, event: "tick", id: String(n), data: "task \(task) message \(n)", size: 9)))
        }
        for n in 1...3000 {
            bus.post([message(1, n), message(2, n)])
        }
        writer.close()
        let read = writer.messages(of: TaskID(rawValue: 1), from: 700, through: 1299)
        XCTAssertEqual(read.map(\.message.index), Array(700...1299))
        XCTAssertEqual(read.first?.message.data, "task 1 message 700")
        XCTAssertEqual(read.first?.message.event, "tick")
        XCTAssertEqual(read.first?.time ?? 0, 1007, accuracy: 0.001)
        XCTAssertEqual(writer.messages(of: TaskID(rawValue: 2), from: 1, through: 3).map(\.message.data),
                       ["task 2 message 1", "task 2 message 2", "task 2 message 3"])
        XCTAssertEqual(writer.messages(of: TaskID(rawValue: 2), from: 2990, through: 4000).count, 11, "up to what was written")
        XCTAssertTrue(writer.messages(of: TaskID(rawValue: 3), from: 1, through: 10).isEmpty, "a task with no messages")
    }

    func testATornLastLineIsSkippedAndTasksThatNeverEndedAreMarked() throws {
        let (_, url) = try journaledSession()
        var text = try String(contentsOf: url, encoding: .utf8)
        // A task that was created and sent, then the process died mid-line.
        text += #"{"event":"created","headers":[],"kind":"data","method":"GET","task":9,"time":1,"url":"http://x.test/slow"}"# + "\n"
        text += #"{"event":"resumed","task":9,"ti"#
        try text.write(to: url, atomically: true, encoding: .utf8)
        let saved = try Recording.load(url)
        XCTAssertEqual(saved.notes.count, 2, "\(saved.notes)")
        let store = TaskStore()
        store.apply(saved.events)
        let unfinished = try XCTUnwrap(store.record(TaskID(rawValue: 9)))
        XCTAssertEqual(unfinished.state, .failed)
        XCTAssertTrue(unfinished.error?.message.hasPrefix("unfinished:") ?? false)
    }

    func testSessionsAreListedNewestFirstAndPrunedOldestFirst() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (id, size) in [("20260101-000000-1", 600), ("20260102-000000-2", 600), ("20260103-000000-3", 600)] {
            let header = #"{"journal":1,"session":{"id":"\#(id)","pid":1,"source":"s\#(id.suffix(1))","started":0,"version":"0"}}"#
            try (header + "\n" + String(repeating: " ", count: size)).write(to: folder.appendingPathComponent(id + ".jsonl"), atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(Journals.list(in: folder).map(\.id), ["20260103-000000-3", "20260102-000000-2", "20260101-000000-1"])
        XCTAssertEqual(Journals.locate("20260102", in: folder)?.lastPathComponent, "20260102-000000-2.jsonl", "a unique prefix")
        XCTAssertNil(Journals.locate("2026010", in: folder), "ambiguous")
        XCTAssertEqual(Journals.prune(in: folder, limit: 1500).map(\.id), ["20260101-000000-1"])
        XCTAssertEqual(Journals.list(in: folder).map(\.id), ["20260103-000000-3", "20260102-000000-2"])
    }

    /// 60 sessions leave 50; a session being written (a writer holds its journal's lock) is never
    /// deleted, however old: the next oldest go instead.
    func testSixtySessionsLeaveFiftyAndOneBeingWrittenIsKept() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for day in 1...60 {
            let id = String(format: "202601%02d-000000-%d", day <= 31 ? day : day - 31 + 100, day)
            try #"{"journal":2,"session":{"id":"x","pid":1,"source":"s","started":0,"version":"0"}}"#
                .write(to: folder.appendingPathComponent(id + ".jsonl"), atomically: true, encoding: .utf8)
        }
        // The oldest one is open for writing by a running session.
        let oldest = try XCTUnwrap(Journals.list(in: folder, reading: false).last)
        let fd = open(oldest.url.path, O_WRONLY | O_APPEND)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        defer { close(fd) }
        let removed = Journals.prune(in: folder)
        XCTAssertEqual(removed.count, 10)
        let left = Journals.list(in: folder, reading: false)
        XCTAssertEqual(left.count, 50, "the one being written counts among the 50 kept")
        XCTAssertTrue(left.contains { $0.id == oldest.id })
        XCTAssertFalse(removed.contains { $0.id == oldest.id })
        // A writer's own journal is locked while it writes, and free once it is closed.
        let writer = try JournalWriter(bus: EventBus(), source: "t", directory: folder)
        XCTAssertTrue(Journals.isBeingWritten(writer.url))
        writer.close()
        XCTAssertFalse(Journals.isBeingWritten(writer.url))
    }

    func testAHARFileOpensAsFinishedTasks() throws {
        let (live, _) = try journaledSession()
        let har = try HARWriter.data(entries: SessionExport.harEntries(from: live.allRecords), creator: (name: "t", version: "1"), redaction: SecretPolicy().redaction)
        let saved = try Recording.load(try write(har, named: "s.har"))
        let store = TaskStore()
        store.apply(saved.events)
        let records = store.allRecords
        // A redirect is one entry per hop; the reset appears once, with what arrived.
        XCTAssertEqual(records.map { $0.status ?? 0 }, [200, 302, 302, 200, 200, 200, 200])
        XCTAssertEqual(try records.first?.body?.loadData(), try live.allRecords.first?.body?.loadData())
        XCTAssertEqual(records.first?.sentHeads.first?.headers, live.allRecords.first?.sentHeads.first?.headers)
        XCTAssertEqual(records.first?.timings?.total ?? -1, live.allRecords.first?.timings?.total ?? -2, accuracy: 0.01)
    }

    /// WebSocket messages in a HAR from a browser (Chrome's `_webSocketMessages`: the documented shape,
    /// and the looser one other tools write — no time, no opcode, an https URL) and a streamed
    /// response's `_streamMessages` from reqtop's own export open in the Messages and Stream tabs.
    func testMessagesKeptInAHAROpenAgain() throws {
        let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
          {"startedDateTime": "2019-05-24T20:41:22.400Z", "time": 0.5,
           "request": {"method": "GET", "url": "wss://echo.websocket.org/", "httpVersion": "HTTP/1.1", "headers": [{"name": "Upgrade", "value": "websocket"}]},
           "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "HTTP/1.1", "headers": [], "content": {"size": 0, "mimeType": "x-unknown"}},
           "timings": {"send": 0.1, "wait": 0.3, "receive": 0.1}, "_resourceType": "websocket",
           "_webSocketMessages": [
             {"type": "send", "time": 1558730482.5071473, "opcode": 1, "data": "Hello, WebSockets!"},
             {"type": "receive", "time": 1558730482.5883863, "opcode": 1, "data": "Hello, WebSockets!"},
             {"type": "receive", "time": 1558730482.6, "opcode": 2, "data": "AAEC"}]},
          {"request": {"method": "GET", "url": "https://example.com/socket", "headers": []}, "response": {"status": 101},
           "_webSocketMessages": [{"type": "send", "data": "{\"hi\":1}"}, {"type": "receive", "data": "pong"}]},
          {"startedDateTime": "2026-12-03T10:00:00.000Z", "request": {"method": "GET", "url": "http://127.0.0.1:9/sse", "headers": []},
           "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}], "content": {"size": 10, "mimeType": "text/event-stream"}},
           "timings": {"send": 0, "wait": 1, "receive": 2000},
           "_streamMessages": [{"type": "receive", "time": 1796292001.5, "opcode": 1, "data": "{\"n\":1}", "format": "sse", "index": 1, "size": 7,
                                "event": "tick", "id": "1"}]}]}}
        """#
        let saved = try Recording.load(try write(Data(har.utf8), named: "chrome.har"))
        let store = TaskStore()
        store.apply(saved.events)
        let records = store.allRecords
        XCTAssertEqual(records.map(\.isWebSocket), [true, true, false])
        let chrome = try XCTUnwrap(records[0].messages?.entries)
        XCTAssertEqual(chrome.map(\.message.direction), [.send, .receive, .receive])
        XCTAssertEqual(chrome.map(\.message.opcode), [1, 1, 2])
        for (time, expected) in zip(chrome.map(\.time), [1558730482.5071473, 1558730482.5883863, 1558730482.6]) {
            XCTAssertEqual(time, expected, accuracy: 1e-6, "each message at its own time")
        }
        XCTAssertEqual(chrome[2].message.size, 3, "binary: the size of the decoded base64")
        XCTAssertEqual(records[1].messages?.entries.map(\.message.data), [#"{"hi":1}"#, "pong"])
        let stream = try XCTUnwrap(records[2].messages?.entries.first?.message)
        XCTAssertEqual(stream, StreamMessage(format: .sse, index: 1, event: "tick", id: "1", data: #"{"n":1}"#, size: 7))
        XCTAssertEqual(records.map(\.state), [.completed, .completed, .completed])
    }

    /// A journal of format 1 (written by reqtop before the event lines were one schema, a demo run
    /// kept as it was) still opens: every event it recorded, with its heads, redirects and failure.
    func testAJournalOfTheFirstFormatStillOpens() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/journal-v1.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(#"{"journal":1,"#))
        let contents = try Journals.read(url)
        XCTAssertEqual(contents.skippedLines, 0)
        XCTAssertEqual(contents.info?.source, "demo.http")
        XCTAssertEqual(contents.events.count, text.split(separator: "\n").count - 1, "every line after the first is an event")
        let store = TaskStore()
        store.apply(contents.events)
        let records = store.allRecords
        XCTAssertEqual(records.count, text.components(separatedBy: #""event":"created""#).count - 1)
        let redirected = try XCTUnwrap(records.first { $0.name == "redirects" })
        XCTAssertEqual(redirected.redirects.count, 3)
        XCTAssertEqual(redirected.sentHeads.count, 4, "a head sent per hop")
        XCTAssertEqual(redirected.state, .completed)
        XCTAssertTrue(records.contains { $0.state == .failed && $0.error != nil })
    }

    private func write(_ data: Data, named name: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}
