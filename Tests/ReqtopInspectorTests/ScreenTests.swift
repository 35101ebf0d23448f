import Foundation
@testable import ReqtopInspector
import ReqtopHTTPModel
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopTerminalUI
import XCTest
import ReqtopTasks

/// Actions that only record what was asked: the screens' key handling, without a network.
final class RecordingActions: InspectorActions {
    let secrets = SecretPolicy()
    var calls: [String] = []
    /// What `earlierMessages` reads back (a journal's messages), nil: no journal.
    var journaled: [StreamMessageLog.Entry]?
    func earlierMessages(of id: TaskID, from first: Int, through last: Int) -> [StreamMessageLog.Entry]? {
        calls.append("earlierMessages \(id) \(first)…\(last)")
        return journaled?.filter { (first...last).contains($0.message.index) }
    }
    var unfinishedCount = 0
    var queuedCount = 0
    var notSentCount = 0
    func suspendOrResume(_ id: TaskID) -> String { calls.append("suspendOrResume \(id)"); return "ok" }
    func cancel(_ id: TaskID) -> String { calls.append("cancel \(id)"); return "ok" }
    func replay(_ record: TaskRecord) -> String { calls.append("replay \(record.id)"); return "ok" }
    func send(_ request: HTTPRequest) -> String {
        calls.append("send \(request.method) \(request.url.absoluteString) \(request.headers.map { "\($0.name)=\($0.value)" }) \(request.body.data.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
        return "ok"
    }
    func saveHAR(to path: String) -> String { calls.append("saveHAR \(path)"); return "ok" }
    func exportCurl(_ record: TaskRecord, to path: String) -> String { calls.append("exportCurl \(record.id) \(path)"); return "ok" }
    func edit(_ record: TaskRecord) -> String { calls.append("edit \(record.id)"); return "ok" }
    func copy(_ text: String, describing what: String) -> String { calls.append("copy \(what): \(text)"); return "copied \(what)" }
    func saveBody(_ record: TaskRecord, to path: String) -> String { calls.append("saveBody \(record.id) \(path)"); return "ok" }
    /// What `bodySoFar` returns for running tasks (set by a test).
    var liveBodies: [TaskID: Data] = [:]
    func bodySoFar(_ id: TaskID) -> Data? { liveBodies[id] }
    var activity: String?
    var notice: String?
    func takeNotice() -> String? { defer { notice = nil }; return notice }
    func preview(_ request: HTTPRequest) -> String {
        ([request.method + " " + request.url.absoluteString] + request.headers.map(\.description)
         + (request.body.data.map { ["", String(decoding: $0, as: UTF8.self)] } ?? [])).joined(separator: "\n")
    }
}

final class ScreenTests: XCTestCase {
    private func makeApp(width: Int = 100, height: Int = 12) -> (InspectorApp, TaskStore, RecordingActions, Terminal<TestBackend>) {
        let store = TaskStore()
        let actions = RecordingActions()
        let app = InspectorApp(store: store, actions: actions, title: "api.http")
        return (app, store, actions, Terminal(backend: TestBackend(width: width, height: height)))
    }

    private func draw(_ app: InspectorApp, _ terminal: Terminal<TestBackend>, now: Double = 101) -> [String] {
        terminal.draw { frame in app.render(&frame, now: now) }
        return terminal.backend.lines
    }

    func testMainScreenShowsHeaderRowsAndHints() {
        let (app, store, _, terminal) = makeApp()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://api.test:8080/users", status: 200, bytes: 2048, totalMs: 50))
        store.apply([CannedEvents.created(2, "POST", "http://api.test:8080/login"), CannedEvents.simple(2, .resumed, at: 100.5),
                     CannedEvents.simple(2, .response(CannedEvents.head(404, "http://api.test:8080/login")), at: 100.6),
                     CannedEvents.simple(2, .progress(TransferProgress(direction: .download, completed: 25, total: 100)), at: 100.7)])
        let lines = draw(app, terminal)
        XCTAssertEqual(lines[0].trimmingCharacters(in: .whitespaces),
                       "reqtop · api.http   1 running  0 suspended  1 completed  0 failed  0 cancelled")
        XCTAssertTrue(lines[1].contains("shown 2/2  sort id"), lines[1])
        XCTAssertEqual(lines[2], "  # STATE     METHOD HOST / PATH                          STATUS      SIZE     TIME PROGRESS        ")
        XCTAssertEqual(lines[3], "  1 completed GET    api.test:8080/users                     200    2.0 KB    50 ms ██████████ 100% ")
        XCTAssertEqual(lines[4], "  2 running   POST   api.test:8080/login                     404      25 B   500 ms ██▌         25% ")
        XCTAssertTrue(lines[11].hasPrefix(" ↑↓ move  Enter open  s suspend/resume  x cancel"), lines[11])
    }

    func testKeysActOnTheSelectedRow() {
        let (app, store, actions, terminal) = makeApp()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/a", status: 200, bytes: 1, totalMs: 1))
        store.apply(CannedEvents.lifecycle(2, "GET", "http://t/b", status: 200, bytes: 1, totalMs: 1))
        _ = draw(app, terminal)
        XCTAssertEqual(app.handle(.char("j")), .redraw)
        _ = app.handle(.char("s"))
        _ = app.handle(.char("x"))
        _ = app.handle(.char("r"))
        _ = app.handle(.char("g"))
        _ = app.handle(.char(" "))
        XCTAssertEqual(actions.calls, ["suspendOrResume #2", "cancel #2", "replay #2", "suspendOrResume #1"])
    }

    func testDetailTabsShowRequestResponseBodyTimingAndTimeline() {
        let (app, store, _, terminal) = makeApp(width: 90, height: 20)
        store.apply(CannedEvents.lifecycle(7, "GET", "http://api.test/items", status: 200, bytes: 11, totalMs: 40))
        _ = draw(app, terminal)
        _ = app.handle(.enter)
        var lines = draw(app, terminal)
        XCTAssertEqual(lines[0].trimmingCharacters(in: .whitespaces), "#7 GET http://api.test/items — completed 200 OK")
        XCTAssertTrue(lines[1].hasPrefix(" Request │ Response │ Body │ Timing │ Events"), lines[1])
        // The head as it went on the wire, with the fields the client added.
        XCTAssertEqual(lines[2].trimmingCharacters(in: .whitespaces), "── sent to http://api.test/items ──")
        XCTAssertEqual(lines[3].trimmingCharacters(in: .whitespaces), "GET /items HTTP/1.1")
        XCTAssertEqual(lines[4].trimmingCharacters(in: .whitespaces), "Host:       api.test", "names and values in aligned columns")
        XCTAssertEqual(lines[6].trimmingCharacters(in: .whitespaces), "Accept:     */*")

        _ = app.handle(.tab)
        lines = draw(app, terminal)
        XCTAssertEqual(lines[2].trimmingCharacters(in: .whitespaces), "HTTP/1.1 200 OK")
        XCTAssertEqual(lines[3].trimmingCharacters(in: .whitespaces), "Content-Type: application/json")

        _ = app.handle(.tab)
        lines = draw(app, terminal)
        XCTAssertEqual(Array(lines[2...6]).map { $0.trimmingCharacters(in: .whitespaces) },
                       ["auto view (v changes it)", "", "{", "\"ok\": true", "}"])

        _ = app.handle(.tab)
        lines = draw(app, terminal)
        XCTAssertTrue(lines[2].contains("Waterfall (total 40 ms)"), lines[2])
        XCTAssertTrue(lines[4].hasPrefix(" dns"), lines[4])
        XCTAssertTrue(lines.contains { $0.contains("wait") && $0.contains("35 ms") && $0.contains("█") })

        _ = app.handle(.tab)
        lines = draw(app, terminal)
        let timeline = lines[2...].map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(timeline[0], "+0.000s  created  GET http://api.test/items")
        XCTAssertTrue(timeline.contains("+0.010s  resumed"))
        XCTAssertTrue(timeline.contains("+0.020s  response  HTTP/1.1 200 OK"))
        XCTAssertTrue(timeline.contains { $0.hasPrefix("+0.050s  completed  status 200, 11 B, 40 ms") })

        _ = app.handle(.escape)
        XCTAssertTrue(draw(app, terminal)[2].contains("HOST / PATH"), "Esc goes back to the table")
    }

    /// A completed task whose response has `headers` and `body`.
    private func task(_ id: Int, headers: [HTTPHeader], body: Data) -> [TaskEvent] {
        let url = "http://api.test/t\(id)"
        let head = HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: 200, reason: "OK", headers: headers)
        let timings = PhaseTimings(dns: 1, connect: 1, tls: -1, send: 1, wait: 1, receive: 1, total: 5)
        return [CannedEvents.created(id, "GET", url), CannedEvents.simple(id, .resumed, at: 100.01),
                CannedEvents.simple(id, .requestSent(CannedEvents.sent("GET", url)), at: 100.02), CannedEvents.simple(id, .response(head), at: 100.03),
                CannedEvents.simple(id, .completed(TaskCompletion(response: head, body: .data(body), bytes: Int64(body.count), timings: timings,
                                                           redirects: [], serializer: "raw", serializedValue: nil, serializationError: nil)), at: 100.04)]
    }

    private func openDetail(_ app: InspectorApp, _ terminal: Terminal<TestBackend>, tab: Character) -> [String] {
        _ = draw(app, terminal)
        _ = app.handle(.enter)
        _ = app.handle(.char(tab))
        return draw(app, terminal)
    }

    func testSearchInTheDetailViewTypesIntoAPromptAndSteppsThroughMatches() {
        let (app, store, actions, terminal) = makeApp(width: 60, height: 8)
        let body = (1...30).map { $0 % 10 == 0 ? "row \($0) has the URL" : "row \($0)" }.joined(separator: "\n")
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: Data(body.utf8)))
        _ = openDetail(app, terminal, tab: "3")
        for key in "/url" { _ = app.handle(.char(key)) }
        XCTAssertEqual(actions.calls, [], "typing a search never replays or cancels")
        _ = app.handle(.enter)
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[7].contains("match 1/3 for url"), lines[7])
        XCTAssertTrue(lines[2].contains("row 10 has the URL"), "the first match scrolls to the top: \(lines)")
        _ = app.handle(.char("n"))
        lines = draw(app, terminal)
        XCTAssertTrue(lines[7].contains("match 2/3"), lines[7])
        XCTAssertTrue(lines[2].contains("row 20 has the URL"), "\(lines)")
        _ = app.handle(.char("N"))
        _ = app.handle(.char("N"))
        lines = draw(app, terminal)
        XCTAssertTrue(lines[7].contains("match 3/3") && lines[7].contains("wrapped"), lines[7])
        _ = app.handle(.char("G"))
        lines = draw(app, terminal)
        XCTAssertEqual(lines[6].trimmingCharacters(in: .whitespaces), "row 30 has the URL", "G shows a full last page: \(lines)")
        XCTAssertEqual(lines[2].trimmingCharacters(in: .whitespaces), "row 26")
    }

    func testAnUnboundLetterInTheDetailViewChangesNothing() {
        let (app, store, actions, terminal) = makeApp(width: 60, height: 8)
        store.apply(CannedEvents.lifecycle(1, "GET", "http://api.test/a", status: 200, bytes: 11, totalMs: 5))
        let before = openDetail(app, terminal, tab: "1")
        for key in "uiqpadfhk".filter({ Keymap.command(for: .char($0), in: .detail) == nil }) {
            XCTAssertEqual(app.handle(.char(key)), .ignore, "\(key)")
        }
        XCTAssertEqual(draw(app, terminal), before)
        XCTAssertEqual(actions.calls, [])
    }

    func testBodyViewsShowEscapesAsPicturesAndJSONInOrder() {
        let (app, store, _, terminal) = makeApp(width: 60, height: 10)
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: Data("red \u{1B}[31mtext\u{1B}[0m\n".utf8) + Data([0xFF])))
        store.apply(task(2, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"z":1,"a":{},"list":[]}"#.utf8)))
        var lines = openDetail(app, terminal, tab: "3")
        XCTAssertEqual(lines[4].trimmingCharacters(in: .whitespaces), "red ␛[31mtext␛[0m", "mostly text stays text: \(lines)")
        XCTAssertEqual(lines[5].trimmingCharacters(in: .whitespaces), "\u{FFFD}")
        _ = app.handle(.char("v")) // json: not JSON, shown as text with a note
        _ = app.handle(.char("v")) // html/xml: no tags, shown as text with a note
        lines = draw(app, terminal)
        XCTAssertEqual(lines[4].trimmingCharacters(in: .whitespaces), "(no tags: shown as text)", "\(lines)")
        _ = app.handle(.char("v")) // text
        _ = app.handle(.char("v")) // hex
        lines = draw(app, terminal)
        XCTAssertTrue(lines[2].contains("hex view"), "\(lines)")
        XCTAssertTrue(lines[3].hasPrefix(" 00000000  72 65 64 20 1b"), lines[3])
        _ = app.handle(.char("v")) // raw
        _ = app.handle(.char("v")) // auto again
        _ = app.handle(.escape)
        _ = app.handle(.char("j"))
        lines = openDetail(app, terminal, tab: "3")
        XCTAssertEqual(Array(lines[4...8]).map { $0.trimmingCharacters(in: .whitespaces) },
                       ["{", "\"z\": 1,", "\"a\": {},", "\"list\": []", "}"], "document order, empty containers compact")
        // Coloured: the key `"z"` cyan, the number yellow; the note above is plain.
        let cells = terminal.backend.buffer
        let row = 5, keyColumn = lines[5].firstIndex(of: "\"").map { lines[5].distance(from: lines[5].startIndex, to: $0) }!
        XCTAssertEqual(cells[keyColumn, row].style.fg, .cyan)
        XCTAssertEqual(cells[keyColumn + 5, row].style.fg, .yellow)
        XCTAssertEqual(cells[2, 2].style.fg, Style().fg, "the view note is not coloured")
    }

    /// At 80 columns every state's count is on the header whole, however long the title and the
    /// counts: the title is cut first, then the labels shorten.
    func testTheHeaderKeepsEveryCountWholeAt80Columns() {
        let store = TaskStore()
        let app = InspectorApp(store: store, actions: RecordingActions(), title: "a-very-long-request-list-name-from-somewhere.http")
        let terminal = Terminal(backend: TestBackend(width: 80, height: 24))
        var events: [TaskEvent] = []
        for id in 1...1234 { events += CannedEvents.lifecycle(id, "GET", "http://api.test/\(id)", status: 200, bytes: 10, totalMs: 1) }
        for id in 1235...1290 {
            events += [CannedEvents.created(id, "GET", "http://api.test/f"), CannedEvents.simple(id, .resumed, at: 100.1),
                       CannedEvents.simple(id, .failed(TaskFailure(error: TransferError(code: .connectionReset, message: "reset"), response: nil,
                                                                    bytes: 0, timings: nil, redirects: [], partialBody: nil)), at: 100.2)]
        }
        for id in 1291...1297 {
            events += [CannedEvents.created(id, "GET", "http://api.test/c"), CannedEvents.simple(id, .resumed, at: 100.1),
                       CannedEvents.simple(id, .cancelled(nil), at: 100.2)]
        }
        for id in 1298...1309 { events += [CannedEvents.created(id, "GET", "http://api.test/r"), CannedEvents.simple(id, .resumed, at: 100.1)] }
        for id in 1310...1312 {
            events += [CannedEvents.created(id, "GET", "http://api.test/s"), CannedEvents.simple(id, .resumed, at: 100.1), CannedEvents.simple(id, .suspended, at: 100.2)]
        }
        store.apply(events)
        terminal.draw { frame in app.render(&frame, now: 101) }
        let header = terminal.backend.lines[0]
        XCTAssertTrue(header.hasSuffix("12 running 3 susp 1234 done 56 failed 7 canc") || header.contains("12 running  3 suspended  1234 completed  56 failed  7 cancelled"),
                      header)
        XCTAssertTrue(header.hasPrefix(" reqtop · a-very-long"), header)
        XCTAssertLessThanOrEqual(TextWidth.of(header.trimmingCharacters(in: .whitespaces)), 80)
        // At 40 columns the counts still come whole, the title gone.
        XCTAssertEqual(TableScreen.headerLine(title: "x.http", aggregates: store.aggregates(now: 101), width: 40),
                       " 12 run 3 susp 1234 done 56 fail 7 canc")
    }

    /// A task suspended for a while, then cancelled: its TIME is marked as including the pause, and
    /// the Timing tab says how much of it was.
    func testACancelledTasksTimeSaysItIncludesItsPause() {
        let (app, store, _, terminal) = makeApp(width: 100, height: 12)
        store.apply([CannedEvents.created(1, "GET", "http://api.test/slow"), CannedEvents.simple(1, .resumed, at: 100.1),
                     CannedEvents.simple(1, .suspended, at: 100.2), CannedEvents.simple(1, .resumed, at: 101.2),
                     CannedEvents.simple(1, .cancelled(nil), at: 101.35)])
        let row = draw(app, terminal, now: 102).first { $0.contains("api.test/slow") } ?? ""
        XCTAssertTrue(row.contains("1.25 s‖"), row)
        let lines = openDetail(app, terminal, tab: "4").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains("Its TIME, 1.25 s, includes 1.00 s it spent suspended (250 ms without)."), "\(lines)")
    }

    /// A message longer than the bottom line takes two lines (with room for them), not an ellipsis.
    func testALongMessageIsShownWholeOnTwoLines() {
        let (app, _, _, terminal) = makeApp(width: 80, height: 24)
        let text = "GET http://127.0.0.1:18123/html ✗ not sent: xpath queries are not evaluated by reqtop (no XML/HTML engine)"
        app.say(text)
        let lines = draw(app, terminal, now: Date().timeIntervalSince1970)
        let bottom = (lines[22] + " " + lines[23]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(bottom.contains(text), "\(lines[22])\n\(lines[23])")
        XCTAssertTrue(lines[23].trimmingCharacters(in: .whitespaces).hasSuffix("q quit  ? help"), lines[23])
    }

    func testAFailedTaskShowsTheBodyThatArrivedMarkedAsPartial() {
        let (app, store, _, terminal) = makeApp(width: 80, height: 8)
        let url = "http://api.test/reset"
        let head = HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: 200, reason: "OK",
                                    headers: [HTTPHeader(name: "Content-Type", value: "text/plain")])
        store.apply([CannedEvents.created(1, "GET", url), CannedEvents.simple(1, .resumed, at: 100.01), CannedEvents.simple(1, .response(head), at: 100.02),
                     CannedEvents.simple(1, .failed(TaskFailure(error: TransferError(code: .connectionReset, message: "reset by peer"), response: head,
                                                          bytes: 9, timings: nil, redirects: [], partialBody: .data(Data("first par".utf8)))), at: 100.03)])
        let lines = openDetail(app, terminal, tab: "3").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[2].hasPrefix("(partial: connectionReset after 9 B)"), lines[2])
        XCTAssertTrue(lines[3...].contains("first par"), "\(lines)")
    }

    func testACancelledTaskShowsItsPartialBodyAndARunningOneItsBodySoFar() {
        let (app, store, actions, terminal) = makeApp(width: 80, height: 8)
        let url = "http://api.test/stream"
        let head = HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: 200, reason: "OK",
                                    headers: [HTTPHeader(name: "Content-Type", value: "application/x-ndjson")])
        store.apply([CannedEvents.created(1, "GET", url), CannedEvents.simple(1, .resumed, at: 100.01), CannedEvents.simple(1, .response(head), at: 100.02),
                     CannedEvents.simple(1, .progress(TransferProgress(direction: .download, completed: 12, total: -1)), at: 100.03)])
        var lines = openDetail(app, terminal, tab: "3").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines[2], "waiting for the body…", "no live bytes offered yet: \(lines)")
        actions.liveBodies[TaskID(rawValue: 1)] = Data("{\"n\":1}\n{\"n\":2}\n".utf8)
        store.apply([CannedEvents.simple(1, .progress(TransferProgress(direction: .download, completed: 16, total: -1)), at: 100.04)])
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[2].hasPrefix("(receiving: 16 B so far)"), "\(lines)")
        XCTAssertEqual(Array(lines[4...5]), [#"{"n":1}"#, #"{"n":2}"#], "NDJSON is text, line by line")
        actions.liveBodies = [:]
        store.apply([CannedEvents.simple(1, .cancelled(TaskFailure(error: TransferError(code: .cancelled, message: "cancelled"), response: head,
                                                             bytes: 16, timings: nil, redirects: [],
                                                             partialBody: .data(Data("{\"n\":1}\n{\"n\":2}\n".utf8)))), at: 100.05)])
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[2].hasPrefix("(partial: cancelled after 16 B)"), "\(lines)")
        XCTAssertEqual(lines[5], #"{"n":2}"#)
    }

    func testEnterFoldsTheFirstJSONContainerFromTheTopAndUnfoldsIt() {
        let (app, store, _, terminal) = makeApp(width: 60, height: 12)
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                         body: Data(#"{"a":{"b":1,"c":[2,3]},"d":[4]}"#.utf8)))
        var lines = openDetail(app, terminal, tab: "3").map { String($0.dropFirst()) }
        XCTAssertEqual(lines[6].trimmingCharacters(in: .whitespaces), #""b": 1,"#, "\(lines)")
        _ = app.handle(.enter)
        lines = draw(app, terminal).map { String($0.dropFirst()) }
        XCTAssertEqual(lines[5].trimmingCharacters(in: .whitespaces), #""a": {…},  (5 lines folded)"#, "\(lines)")
        XCTAssertEqual(lines[6].trimmingCharacters(in: .whitespaces), #""d": ["#)
        _ = app.handle(.char("/"))
        for c in "4" { _ = app.handle(.char(c)) }
        _ = app.handle(.enter)
        XCTAssertTrue(draw(app, terminal)[11].contains("match 1/1"), "search looks in what is shown")
        _ = app.handle(.char("g"))
        _ = app.handle(.char(" "))
        lines = draw(app, terminal).map { String($0.dropFirst()) }
        XCTAssertEqual(lines[6].trimmingCharacters(in: .whitespaces), #""b": 1,"#, "unfolded again: \(lines)")
        _ = app.handle(.char("G"))
        XCTAssertEqual(app.handle(.enter), .redraw, "past the end (G before a frame clamps the offset): nothing to fold, no crash")
    }

    func testHeadersAreAnAlignedNameValueTable() {
        let (app, store, _, terminal) = makeApp(width: 80, height: 10)
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "ETag", value: "\"x\""),
                                      HTTPHeader(name: "X-Empty", value: "")], body: Data("hi".utf8)))
        let lines = openDetail(app, terminal, tab: "2").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines[3...5]), ["Content-Type: text/plain", #"ETag:         "x""#, "X-Empty:"], "\(lines)")
    }

    func testHTMLIsShownIndentedWithColouredTags() {
        let (app, store, _, terminal) = makeApp(width: 80, height: 14)
        let html = "<!DOCTYPE html><html><head><title>Hi</title><style>\n  p { color: red }\n</style></head><body><p>one<br>two</p><ul><li>a<li>b</ul></body></html>"
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "text/html; charset=utf-8")], body: Data(html.utf8)))
        let lines = openDetail(app, terminal, tab: "3").map { String($0.dropFirst()) }
        let expected = ["<!DOCTYPE html>", "<html>", "  <head>", "    <title>Hi</title>", "    <style>", "      p { color: red }",
                        "    </style>", "  </head>", "  <body>"]
        XCTAssertEqual(lines[4..<13].map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }, expected)
        XCTAssertEqual(terminal.backend.buffer[5, 5].style.fg, .cyan, "a tag name is coloured")
    }

    func testTimingShowsLivePhasesAndPausesAsTheirOwnRow() {
        let (app, store, _, terminal) = makeApp(width: 90, height: 16)
        let url = "http://api.test/slow"
        store.apply([CannedEvents.created(1, "GET", url, at: 100), CannedEvents.simple(1, .resumed, at: 100),
                     CannedEvents.simple(1, .response(CannedEvents.head(200, url)), at: 100.5), CannedEvents.simple(1, .suspended, at: 101),
                     CannedEvents.simple(1, .resumed, at: 103)])
        _ = draw(app, terminal, now: 104)
        _ = app.handle(.enter)
        _ = app.handle(.char("4"))
        var lines = draw(app, terminal, now: 104).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines[2], "Running for 4.00 s", "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("until the response head") && $0.hasSuffix("500 ms") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("receiving so far") && $0.contains("1.50 s") }, "3.5 s less the 2 s paused: \(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("paused") && $0.hasSuffix("2.00 s") }, "\(lines)")
        // Finished: the paused time is its own row and out of receive.
        let timings = PhaseTimings(dns: 1, connect: 1, tls: -1, send: 1, wait: 497, receive: 3_500, total: 4_000)
        store.apply([CannedEvents.simple(1, .completed(TaskCompletion(response: CannedEvents.head(200, url), body: nil, bytes: 0, timings: timings,
                                                               redirects: [], serializer: "raw", serializedValue: nil, serializationError: nil)), at: 104)])
        lines = draw(app, terminal, now: 105).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains { $0.hasPrefix("receive") && $0.contains("1.50 s") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("paused") && $0.contains("2.00 s") }, "\(lines)")
    }

    func testCopyMenuPicksWhatToCopyAndBSavesTheBody() {
        let (app, store, actions, terminal) = makeApp(width: 100, height: 10)
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"a":1}"#.utf8)))
        _ = openDetail(app, terminal, tab: "3")
        for key in ["y", "u", "y", "h", "y", "q", "y", "r", "y", "b", "y", "x"] { _ = app.handle(.char(Character(key))) }
        XCTAssertEqual(actions.calls, [
            "copy the URL: http://api.test/t1",
            "copy the httpie command: http --ignore-stdin --follow 'GET' 'http://api.test/t1' 'Accept:*/*'",
            "copy the request head: GET /t1 HTTP/1.1\nHost: api.test\nUser-Agent: reqtop/0.1.0\nAccept: */*",
            "copy the response head: HTTP/1.1 200 OK\nContent-Type: application/json",
            #"copy the body: {"a":1}"#,
        ])
        XCTAssertTrue(draw(app, terminal)[9].contains("nothing copied"), "an unknown key after y copies nothing")
        _ = app.handle(.char("b"))
        XCTAssertTrue(draw(app, terminal)[9].contains("save the body to: t1.json"), "a name from the URL and the Content-Type")
        _ = app.handle(.enter)
        XCTAssertEqual(actions.calls.last, "saveBody #1 t1.json")
    }

    func testDTakesTheMarkedAndTheSelectedTaskToADiff() {
        let (app, store, _, terminal) = makeApp(width: 100, height: 30)
        store.apply(task(1, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"n":1}"#.utf8)))
        store.apply(task(2, headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-New", value: "y")],
                         body: Data(#"{"n":2}"#.utf8)))
        _ = draw(app, terminal)
        _ = app.handle(.char("d"))
        XCTAssertTrue(draw(app, terminal)[29].contains("mark two tasks"), "d without marks says what to do")
        _ = app.handle(.char("m")) // marks #1 and moves to #2
        _ = app.handle(.char("d"))
        let lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[0].hasPrefix("diff #1 ⟷ #2"), lines[0])
        XCTAssertTrue(lines.contains { $0.hasPrefix("~ url") && $0.contains("http://api.test/t1") && $0.contains("│ http://api.test/t2") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("+ X-New") }, "\(lines)")
        XCTAssertTrue(lines.contains("~ $.n: 1 → 2"), "\(lines)")
        _ = app.handle(.escape)
        XCTAssertTrue(draw(app, terminal)[2].contains("HOST / PATH"))
    }

    func testCookiesTabListsCookiesSentAndSet() {
        let (app, store, _, terminal) = makeApp(width: 100, height: 12)
        store.apply(task(1, headers: [HTTPHeader(name: "Set-Cookie", value: "sid=abc; Path=/; HttpOnly; SameSite=Lax"),
                                      HTTPHeader(name: "Set-Cookie", value: "theme=dark; Max-Age=60")], body: Data()))
        let lines = openDetail(app, terminal, tab: "6").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[1].contains("Cookies"), lines[1])
        XCTAssertEqual(lines[2], "── sent to http://api.test/t1 ──")
        XCTAssertEqual(lines[3], "(no cookies sent)")
        XCTAssertEqual(lines[5], "── set by http://api.test/t1 (200) ──")
        XCTAssertEqual(lines[6].split(separator: " ").map(String.init), ["name", "value", "domain", "path", "expires", "flags"])
        XCTAssertEqual(lines[7].split(separator: " ").map(String.init), ["sid", "abc", "/", "HttpOnly", "SameSite=Lax"])
        XCTAssertEqual(lines[8].split(separator: " ").map(String.init), ["theme", "dark", "max-age", "60"])
    }

    func testFilterPromptNarrowsTheTableAndEscClearsIt() {
        let (app, store, _, terminal) = makeApp()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/ok", status: 200, bytes: 1, totalMs: 1))
        store.apply(CannedEvents.lifecycle(2, "GET", "http://t/missing", status: 404, bytes: 1, totalMs: 1))
        _ = draw(app, terminal)
        _ = app.handle(.char("/"))
        for c in "status:4xx" { _ = app.handle(.char(c)) }
        XCTAssertTrue(draw(app, terminal)[11].contains("filter (text status:4xx"), "the prompt is on the bottom line")
        _ = app.handle(.enter)
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[3].contains("t/missing"))
        XCTAssertFalse(lines.contains { $0.contains("t/ok") })
        XCTAssertTrue(lines[1].contains("shown 1/2"), lines[1])
        _ = app.handle(.escape)
        lines = draw(app, terminal)
        XCTAssertTrue(lines[1].contains("shown 2/2"), lines[1])
    }

    func testNewRequestPromptCollectsLineHeadersAndBody() {
        let (app, _, actions, terminal) = makeApp()
        _ = draw(app, terminal)
        func type(_ text: String) {
            for c in text { _ = app.handle(.char(c)) }
            _ = app.handle(.enter)
        }
        _ = app.handle(.char("n"))
        type("post http://127.0.0.1:9/x")
        type("X-Token: abc")
        type("")
        type("{\"a\":1}")
        XCTAssertEqual(actions.calls, [], "nothing is sent before the user saw it")
        let lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[0].hasPrefix("new request — Enter sends it as shown"), "\(lines)")
        XCTAssertEqual(Array(lines[1...4]), ["post http://127.0.0.1:9/x", "X-Token: abc", "", #"{"a":1}"#])
        _ = app.handle(.enter)
        XCTAssertEqual(actions.calls, [#"send post http://127.0.0.1:9/x ["X-Token=abc"] {"a":1}"#],
                       "method as typed, no header invented")
    }

    func testAURLWithoutSchemeGetsHTTPAndEscDropsTheRequest() {
        let (app, _, actions, terminal) = makeApp()
        _ = draw(app, terminal)
        _ = app.handle(.char("n"))
        for c in "localhost:18081/get" { _ = app.handle(.char(c)) }
        _ = app.handle(.enter)
        _ = app.handle(.enter) // no headers; a GET has no body prompt
        XCTAssertTrue(draw(app, terminal)[1].contains("GET http://localhost:18081/get"), "\(draw(app, terminal))")
        _ = app.handle(.escape)
        XCTAssertEqual(actions.calls, [])
        XCTAssertTrue(draw(app, terminal)[11].contains("not sent"))
    }

    func testAPastedCurlCommandOrHTTPBlockIsOneRequestNeverKeys() {
        let (app, _, actions, terminal) = makeApp()
        _ = draw(app, terminal)
        // On the table: a pasted curl command opens the compose screen; its letters (q, x, l, n) do nothing.
        XCTAssertEqual(app.handle(.paste("curl -X POST 'http://127.0.0.1:9/q' -H 'X-A: 1' -d 'lnqx'")), .redraw)
        XCTAssertTrue(app.top is ComposeScreen)
        _ = app.handle(.enter)
        XCTAssertEqual(actions.calls, [#"send POST http://127.0.0.1:9/q ["X-A=1", "Content-Type=application/x-www-form-urlencoded"] lnqx"#])
        // At the n prompt: a pasted .http block with a multi-line JSON body.
        _ = app.handle(.char("n"))
        _ = app.handle(.paste("PUT http://127.0.0.1:9/items/1\nContent-Type: application/json\n\n{\n  \"a\": 1,\n  \"q\": \"x\"\n}\n"))
        XCTAssertTrue(app.top is ComposeScreen)
        _ = app.handle(.enter)
        XCTAssertEqual(actions.calls.last, "send PUT http://127.0.0.1:9/items/1 [\"Content-Type=application/json\"] {\n  \"a\": 1,\n  \"q\": \"x\"\n}")
        // Text that is no request: ignored, saying so.
        XCTAssertEqual(app.handle(.paste("qqxx")), .redraw)
        XCTAssertEqual(actions.calls.count, 2)
        let bottom = draw(app, terminal)[10...11].joined(separator: " ")
        XCTAssertTrue(bottom.contains("pasted text ignored"), bottom)
    }

    func testCtrlCClosesAPromptAndQuitsOnlyOutsideOne() {
        let (app, _, _, terminal) = makeApp()
        _ = draw(app, terminal)
        _ = app.handle(.char("/"))
        XCTAssertNotNil(app.prompt)
        XCTAssertEqual(app.interrupt(), .redraw)
        XCTAssertNil(app.prompt)
        _ = app.handle(.char("n"))
        XCTAssertEqual(app.handle(.ctrl("c")), .redraw, "Ctrl-C as a key (raw mode) closes the prompt too")
        XCTAssertNil(app.prompt)
        XCTAssertEqual(app.interrupt(), .quit)
    }

    func testMouseSelectsOpensAndPicksTabs() {
        let (app, store, actions, terminal) = makeApp()
        for i in 1...5 { store.apply(CannedEvents.lifecycle(i, "GET", "http://t/\(i)", status: 200, bytes: 1, totalMs: 1)) }
        _ = draw(app, terminal)
        _ = app.handle(.mouse(MouseEvent(.click, x: 10, y: 5))) // the third row
        _ = app.handle(.char("x"))
        XCTAssertEqual(actions.calls, ["cancel #3"])
        _ = app.handle(.mouse(MouseEvent(.wheelDown, x: 10, y: 5)))
        XCTAssertEqual(app.selectedID, TaskID(rawValue: 5), "three rows down, clamped")
        _ = app.handle(.mouse(MouseEvent(.doubleClick, x: 10, y: 3)))
        XCTAssertEqual((app.top as? DetailScreen)?.id, TaskID(rawValue: 1))
        let tabs = draw(app, terminal)[1]
        let timing = TextWidth.of(String(tabs[..<tabs.range(of: "Timing")!.lowerBound]))
        _ = app.handle(.mouse(MouseEvent(.click, x: timing + 1, y: 1)))
        XCTAssertEqual((app.top as? DetailScreen)?.tab, .timing)
    }

    /// A screen is a type: pushed on the stack it draws, takes the keys its context maps, and
    /// leaves the rest to the app; Esc goes back one screen, not to the table.
    func testScreensStackAndANewScreenNeedsNoSwitchEdited() {
        final class MarkerScreen: InspectorScreen {
            var commands: [KeyCommand] = []
            let keyContext = KeyContext.detail
            let hints = "marker hints"
            func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double) {
                frame.buffer.setString(x: 0, y: 0, "MARKER SCREEN", maxWidth: area.width)
            }
            func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction? {
                guard command == .nextTab else { return nil }
                commands.append(command)
                return .redraw
            }
        }
        let (app, store, actions, terminal) = makeApp()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/1", status: 200, bytes: 1, totalMs: 1))
        _ = draw(app, terminal)
        _ = app.handle(.enter)
        XCTAssertTrue(app.top is DetailScreen)
        let marker = MarkerScreen()
        app.push(marker)
        let lines = draw(app, terminal)
        XCTAssertEqual(lines[0].trimmingCharacters(in: .whitespaces), "MARKER SCREEN")
        XCTAssertTrue(lines.last?.contains("marker hints") ?? false, lines.last ?? "")
        _ = app.handle(.tab)
        XCTAssertEqual(marker.commands, [.nextTab], "its own command")
        _ = app.handle(.char("x"))
        XCTAssertEqual(actions.calls, [], "no task selected on this screen: the app's cancel has nothing to act on")
        _ = app.handle(.escape)
        XCTAssertTrue(app.top is DetailScreen, "back one screen")
        _ = app.handle(.escape)
        XCTAssertTrue(app.top is TableScreen)
        XCTAssertEqual(app.handle(.escape), .ignore, "nothing below the table")
    }

    /// A task's script results: ✓/✗ after its status in the table, and the Tests tab (7) lists them.
    func testScriptResultsShowInTheTableAndTheTestsTab() {
        let (app, store, _, terminal) = makeApp(width: 80, height: 16)
        store.apply(CannedEvents.lifecycle(1, "POST", "http://api.test/login", status: 200, bytes: 10, totalMs: 5))
        store.apply(CannedEvents.lifecycle(2, "GET", "http://api.test/me", status: 200, bytes: 10, totalMs: 5))
        store.apply([CannedEvents.simple(1, .test(TestResult(name: "logged in", passed: true)), at: 110),
                     CannedEvents.simple(2, .test(TestResult(name: "has a name", passed: false, message: "name is null")), at: 111),
                     CannedEvents.simple(2, .scriptLog(ScriptLog(level: .log, text: "me: {}")), at: 111)])
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[3].contains("200 ✓"), lines[3])
        XCTAssertTrue(lines[4].contains("200 ✗"), lines[4])
        _ = app.handle(.char("j"))
        _ = app.handle(.enter)
        _ = app.handle(.char("7"))
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines[2...7]), ["── tests: 0 passed, 1 failed ──", "✗ has a name", "name is null", "── log ──", "me: {}", ""])
    }

    /// A streamed response: the table counts its messages, the Stream tab (8) lists them with their
    /// time, name, id and size, JSON pretty-printed, following the tail as more arrive.
    func testStreamTabListsMessagesAsTheyArriveAndFollowsTheTail() {
        let (app, store, _, terminal) = makeApp(width: 100, height: 12)
        let url = "http://api.test/events"
        store.apply([CannedEvents.created(1, "GET", url), CannedEvents.simple(1, .resumed, at: 100),
                     CannedEvents.simple(1, .response(CannedEvents.head(200, url)), at: 100.1)])
        func message(_ n: Int, at time: Double) -> TaskEvent {
            CannedEvents.simple(1, .message(StreamMessage(format: .sse, index: n, event: "update", id: String(n), data: #"{"n":\#(n)}"#,
                                                          size: 7)), at: time)
        }
        store.apply([message(1, at: 100.25), message(2, at: 100.5)])
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[3].contains("⇣ 2 events"), lines[3])
        _ = app.handle(.enter)
        _ = app.handle(.char("8"))
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines[2...9]), ["── 2 messages (sse), 14 B of data, arriving ──",
                                             "+0.250 s  #1  update  id=1  7 B", "{", "\"n\": 1", "}",
                                             "+0.500 s  #2  update  id=2  7 B", "{", "\"n\": 2"])
        // More arrive: the view stays on the last page, where the new ones are.
        store.apply((3...6).map { message($0, at: 100.5 + Double($0) / 10) })
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines[7...10]), ["+1.100 s  #6  update  id=6  7 B", "{", "\"n\": 6", "}"], lines.joined(separator: "\n"))
        // Scrolled up, it stays put when more arrive.
        for _ in 0..<4 { _ = app.handle(.up) }
        let above = draw(app, terminal)
        store.apply([message(7, at: 101.2)])
        XCTAssertEqual(draw(app, terminal)[3...], above[3...])
        // The Events tab shows the run of messages as one entry.
        _ = app.handle(.char("5"))
        XCTAssertTrue(draw(app, terminal).contains { $0.contains("messages #1–#7 (7)") })
    }

    /// A stream past the messages a task holds: at the top of the Stream tab the earlier ones are read
    /// back from the journal a page at a time, the view staying on what it showed; without a journal
    /// the tab says where they are.
    func testMessagesLetGoAreReadBackFromTheJournalAtTheTop() {
        let (app, store, actions, terminal) = makeApp(width: 100, height: 12)
        let url = "http://api.test/events"
        store.apply([CannedEvents.created(1, "GET", url), CannedEvents.simple(1, .resumed, at: 100),
                     CannedEvents.simple(1, .response(CannedEvents.head(200, url)), at: 100.1)])
        let count = StreamMessageLog.maxKept + 1500
        let all = (1...count).map { n in
            StreamMessageLog.Entry(time: 100.2 + Double(n) / 1000, message: StreamMessage(format: .sse, index: n, event: nil, id: nil, data: "m\(n)", size: 2))
        }
        store.apply(all.map { CannedEvents.simple(1, .message($0.message), at: $0.time) })
        actions.journaled = all
        _ = draw(app, terminal)
        _ = app.handle(.enter)
        _ = app.handle(.char("8"))
        _ = draw(app, terminal)
        _ = app.handle(.home)
        var lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains { $0.hasPrefix("+") && $0.contains("#1501 ") }, "the first message held, where the view was:\n" + lines.joined(separator: "\n"))
        XCTAssertEqual(actions.calls.filter { $0.hasPrefix("earlierMessages") }, ["earlierMessages #1 501…1500"])
        _ = app.handle(.home)
        _ = draw(app, terminal)
        _ = app.handle(.home)
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(actions.calls.filter { $0.hasPrefix("earlierMessages") }, ["earlierMessages #1 501…1500", "earlierMessages #1 1…500"])
        XCTAssertTrue(lines[2].hasPrefix("── \(count) messages"), lines[2])
        XCTAssertTrue(lines[3].hasPrefix("+0.201 s  #1 "), "every message is back, the first on top: \(lines[3])")

        // Without a journal, the tab says where they are.
        let (other, otherStore, _, otherTerminal) = makeApp(width: 160, height: 12)
        otherStore.apply([CannedEvents.created(1, "GET", url), CannedEvents.simple(1, .resumed, at: 100)]
                         + all.map { CannedEvents.simple(1, .message($0.message), at: $0.time) })
        _ = draw(other, otherTerminal)
        _ = other.handle(.enter)
        _ = other.handle(.char("8"))
        _ = draw(other, otherTerminal)
        _ = other.handle(.home)
        _ = draw(other, otherTerminal)
        lines = draw(other, otherTerminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines[3].hasPrefix("(messages 1–1500 are no longer held in memory, to keep it bounded: the session's journal"), lines[3])
    }

    /// HTTP/2: the STATUS column says `h2` (widened for it), and the Timing tab names the connection
    /// and the tasks that were streams on it at the same time.
    func testHTTP2ShowsInTheTableAndStreamsSharingAConnectionInTiming() {
        let (app, store, _, terminal) = makeApp(width: 100, height: 20)
        let connection = TransferConnection(localPort: 40001, remoteAddress: "127.0.0.1", remotePort: 443)
        for id in 1...3 {
            let url = "https://api.test/item/\(id)"
            var head = CannedEvents.head(200, url)
            head.httpVersion = "2"
            let timings = PhaseTimings(dns: id == 1 ? 1 : -1, connect: id == 1 ? 2 : -1, tls: id == 1 ? 3 : -1, send: 0.5, wait: 10, receive: 1, total: 20)
            var completion = TaskCompletion(response: head, body: nil, bytes: 10, timings: timings, redirects: [], serializer: "raw",
                                            serializedValue: nil, serializationError: nil)
            completion.connection = id == 3 ? TransferConnection(localPort: 40002, remoteAddress: "127.0.0.1", remotePort: 443) : connection
            store.apply([CannedEvents.created(id, "GET", url), CannedEvents.simple(id, .resumed, at: 100 + Double(id) / 100),
                         CannedEvents.simple(id, .response(head), at: 100.1), CannedEvents.simple(id, .completed(completion), at: 100.2)])
        }
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[2].contains("   STATUS"), "widened for h2 200: \(lines[2])")
        XCTAssertTrue(lines[3].contains("h2 200"), lines[3])
        _ = app.handle(.enter)
        _ = app.handle(.char("4"))
        lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains("Connection port 40001 → 127.0.0.1:443 (HTTP/2, opened for it)"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("also used by 1 other task: #2"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("1 of them ran at the same time as this one: streams multiplexed on one connection (#2)") },
                      lines.joined(separator: "\n"))
    }

    /// A WebSocket through the proxy: the Messages tab (9) lists its frames both ways; at 80 columns
    /// the tab bar drops its padding so every tab stays on it.
    func testMessagesTabListsAWebSocketsFramesBothWays() {
        let (app, store, _, terminal) = makeApp(width: 80, height: 16)
        let url = "ws://127.0.0.1:9000/chat"
        var head = CannedEvents.head(101, url)
        head.reason = "Switching Protocols"
        let frames = [WebSocketMessage(direction: .send, opcode: 1, payload: Data(#"{"a":1}"#.utf8), size: 7),
                      WebSocketMessage(direction: .receive, opcode: 2, payload: Data([0x00, 0x41]), size: 2),
                      WebSocketMessage(direction: .receive, opcode: 8, payload: Data([0x03, 0xE8]), size: 2, closeCode: 1000)]
        store.apply([CannedEvents.created(1, "GET", url, name: "websocket"), CannedEvents.simple(1, .resumed, at: 100),
                     CannedEvents.simple(1, .response(head), at: 100.1)]
                    + frames.enumerated().map { CannedEvents.simple(1, .message(StreamMessage($0.element, index: $0.offset + 1)), at: 100.5 + Double($0.offset)) })
        var lines = draw(app, terminal)
        XCTAssertTrue(lines[3].trimmingCharacters(in: .whitespaces).hasSuffix(" 3ev"), "the row counts the messages in its 4 columns: \(lines[3])")
        _ = app.handle(.enter)
        _ = app.handle(.char("9"))
        lines = draw(app, terminal)
        XCTAssertTrue(lines[1].hasPrefix("Request│Response│Body│Timing│Events│Cookies│Tests│Stream│Messages"), lines[1])
        lines = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines[2...9]), ["── 3 messages (websocket), 11 B of data, arriving ──",
                                             "+0.500 s  #1  ↑ send  text  7 B", "{", "\"a\": 1", "}",
                                             "+1.500 s  #2  ↓ receive  binary  2 B", "00000000  00 41                                             |.A|",
                                             "+2.500 s  #3  ↓ receive  close 1000  2 B"])
        _ = app.handle(.char("8"))
        XCTAssertTrue(draw(app, terminal).contains { $0.contains("A WebSocket: its messages, both ways, are in the Messages tab (9).") })
    }

    func testPromptHistoryIsKeptBetweenSessions() throws {
        let file = PromptHistoryFile(url: FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-history-\(UUID()).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        let (app, _, _, terminal) = makeApp()
        _ = draw(app, terminal)
        _ = app.handle(.char("/"))
        for c in "status:5xx" { _ = app.handle(.char(c)) }
        _ = app.handle(.enter)
        app.savePromptHistory(to: file)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int, 0o600,
                       "typed headers can hold tokens: only this user reads them")
        let (next, _, _, _) = makeApp()
        next.loadPromptHistory(from: file)
        _ = next.handle(.char("/"))
        _ = next.handle(.up)
        XCTAssertEqual(next.prompt?.state.text, "status:5xx")
    }

    func testQuitAsksWhileTasksRun() {
        let (app, _, actions, terminal) = makeApp()
        _ = draw(app, terminal)
        actions.unfinishedCount = 2
        XCTAssertEqual(app.handle(.char("q")), .redraw)
        XCTAssertTrue(draw(app, terminal)[11].contains("quit? (y/n) 2 requests are still running or queued"))
        XCTAssertEqual(app.handle(.char("n")), .redraw)
        XCTAssertEqual(app.handle(.char("q")), .redraw)
        XCTAssertEqual(app.handle(.char("y")), .quit)
        actions.unfinishedCount = 0
        XCTAssertEqual(app.handle(.char("q")), .quit)
    }

    func testHelpScreenIsGeneratedFromTheKeymap() {
        let (app, _, _, terminal) = makeApp(width: 100, height: 60)
        _ = app.handle(.char("?"))
        let lines = draw(app, terminal).map { $0.trimmingCharacters(in: .whitespaces) }
        for binding in Keymap.bindings {
            XCTAssertTrue(lines.contains { $0.contains(binding.help) }, "help shows \(binding.help)")
        }
    }

    func testEveryBindingNamesARealCommandAndEveryCommandHasAKey() {
        let bound = Set(Keymap.bindings.map(\.command))
        XCTAssertEqual(bound, Set(KeyCommand.allCases), "commands without a key: \(Set(KeyCommand.allCases).subtracting(bound))")
        var seen = Set<String>()
        for binding in Keymap.bindings {
            let key = "\(binding.key)@\(binding.context)"
            XCTAssertTrue(seen.insert(key).inserted, "\(key) is bound twice")
            XCTAssertFalse(binding.help.isEmpty)
        }
    }

    func testSmallTerminalDrawsWithoutCrashing() {
        let (app, store, _, _) = makeApp()
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/ok", status: 200, bytes: 1, totalMs: 1))
        for (w, h) in [(20, 5), (1, 1), (200, 60), (0, 0)] {
            let terminal = Terminal(backend: TestBackend(width: w, height: h))
            _ = draw(app, terminal)
            _ = app.handle(.enter)
            _ = draw(app, terminal)
            _ = app.handle(.escape)
        }
    }
}

final class SelectionTests: XCTestCase {
    func testSelectionStaysOnItsTaskWhenTheSortMovesIt() {
        let store = TaskStore()
        let actions = RecordingActions()
        let app = InspectorApp(store: store, actions: actions, title: "t")
        let terminal = Terminal(backend: TestBackend(width: 100, height: 12))
        store.apply(CannedEvents.lifecycle(1, "GET", "http://t/small", status: 200, bytes: 10, totalMs: 1))
        store.apply(CannedEvents.lifecycle(2, "GET", "http://t/large", status: 200, bytes: 9000, totalMs: 1))
        terminal.draw { app.render(&$0, now: 101) }
        _ = app.handle(.char("j"))          // on #2
        _ = app.handle(.char("o"))          // the sort menu
        XCTAssertTrue(app.message?.text.contains("z size") ?? false, "\(String(describing: app.message))")
        _ = app.handle(.char("z"))          // sort by size: #2 moves to the top
        terminal.draw { app.render(&$0, now: 101) }
        _ = app.handle(.char("x"))
        XCTAssertEqual(actions.calls, ["cancel #2"])
        XCTAssertTrue(terminal.backend.lines[3].contains("t/large"), terminal.backend.lines[3])
        XCTAssertTrue(terminal.backend.lines[2].contains("SIZE ▼"), "the sorted column is marked: \(terminal.backend.lines[2])")
        XCTAssertFalse(terminal.backend.lines[2].contains("TIME ▼"))
        _ = app.handle(.char("O"))          // reversed: smallest first
        terminal.draw { app.render(&$0, now: 101) }
        XCTAssertTrue(terminal.backend.lines[2].contains("SIZE ▲"), terminal.backend.lines[2])
        XCTAssertTrue(terminal.backend.lines[4].contains("t/large"), terminal.backend.lines[4])
        XCTAssertTrue(terminal.backend.lines[1].contains("sort size ▲"), terminal.backend.lines[1])
    }
}
