import Foundation
@testable import ReqtopInspector
import ReqtopNetworking
import ReqtopNetworkingTesting
import ReqtopTasks
import ReqtopTerminalUI
import XCTest

/// The task table at the sizes people use: columns by priority, the path last to shrink, colours by class, marks, follow.
final class TaskTableTests: XCTestCase {
    private let longURL = "http://api.internal.example.com:8443/v1/accounts/12345/transactions?since=2026-01-01&page=3"

    private func draw(_ app: InspectorApp, width: Int, height: Int) -> (lines: [String], buffer: Buffer) {
        let terminal = Terminal(backend: TestBackend(width: width, height: height))
        terminal.draw { app.render(&$0, now: 101) }
        return (terminal.backend.lines, terminal.backend.buffer)
    }

    private func app(named: Bool = false) -> (InspectorApp, TaskStore) {
        let store = TaskStore()
        let app = InspectorApp(store: store, actions: RecordingActions(), title: "api.http")
        var events = CannedEvents.lifecycle(1, "GET", longURL, status: 200, bytes: 2048, totalMs: 12)
        if named { events[0] = CannedEvents.created(1, "GET", longURL, name: "list-transactions") }
        store.apply(events)
        store.apply(CannedEvents.lifecycle(2, "POST", "http://api.internal.example.com:8443/v1/login", status: 404, bytes: 10, totalMs: 3))
        store.apply(CannedEvents.lifecycle(3, "GET", "http://api.internal.example.com:8443/v1/health", status: 503, bytes: 10, totalMs: 3))
        return (app, store)
    }

    func testEverySizeShowsAUsefulRowWithThePathsEndAndKeepsQuitAndHelp() {
        for (width, height) in [(80, 24), (100, 30), (60, 15), (40, 10)] {
            let (app, _) = app()
            let lines = draw(app, width: width, height: height).lines
            let row = lines[3]
            XCTAssertTrue(row.contains("1 "), "\(width)×\(height): the id: \(row)")
            XCTAssertTrue(row.contains("GET"), "\(width)×\(height): the method: \(row)")
            XCTAssertTrue(row.contains("200"), "\(width)×\(height): the status: \(row)")
            XCTAssertTrue(row.contains("page=3") || row.contains("=3"), "\(width)×\(height): the path's end: \(row)")
            XCTAssertTrue(lines[4].contains("/login") || lines[4].contains("login"), "\(width)×\(height): \(lines[4])")
            XCTAssertTrue(lines[height - 1].hasSuffix("q quit  ? help "), "\(width)×\(height): \(lines[height - 1])")
            XCTAssertEqual(lines.map { TextWidth.of($0) }.max(), width, "nothing drawn past the edge")
        }
    }

    func testEightyColumnsShowThePathAndAPercentageInsteadOfABar() {
        let (app, _) = app()
        let lines = draw(app, width: 80, height: 24).lines
        XCTAssertTrue(lines[2].contains("HOST / PATH"), lines[2])
        XCTAssertTrue(lines[3].contains("/v1/"), "the path is visible at 80 columns: \(lines[3])")
        XCTAssertTrue(lines[3].contains("100%") && !lines[3].contains("█"), "the bar became a percentage: \(lines[3])")
        XCTAssertTrue(lines[3].contains("done"), "STATE is a short word: \(lines[3])")
        let wide = draw(app, width: 200, height: 24).lines
        XCTAssertTrue(wide[3].contains(String(longURL.dropFirst("http://".count))), "whole at 200 columns: \(wide[3])")
        XCTAssertTrue(wide[3].contains("completed") && wide[3].contains("██████████ 100%"), wide[3])
    }

    /// A proxy's tunnel row reads `CONNECT host:port` at 80 columns (not `CONNE…` and a `/` it never
    /// requested); OPTIONS, the other 7-letter method, is whole too.
    func testATunnelRowShowsCONNECTAndHostPortAtEightyColumns() {
        let (app, store) = app()
        var tunnel = CannedEvents.lifecycle(4, "CONNECT", "https://secure.example.org:443", status: 200, bytes: 5120, totalMs: 40)
        tunnel[0] = CannedEvents.created(4, "CONNECT", "https://secure.example.org:443", name: "tunnel")
        store.apply(tunnel)
        store.apply(CannedEvents.lifecycle(5, "OPTIONS", "http://api.internal.example.com:8443/v1/cors", status: 204, bytes: 0, totalMs: 2))
        let lines = draw(app, width: 80, height: 24).lines
        let row = lines.first { $0.contains("secure.example") } ?? ""
        XCTAssertTrue(row.contains("CONNECT secure.example.org:443 "), "the whole method and the tunnel's host:port: \(row)")
        XCTAssertFalse(row.contains(":443/"), "a tunnel has no path: \(row)")
        XCTAssertTrue(lines.contains { $0.contains("OPTIONS ") }, lines.joined(separator: "\n"))
    }

    func testATaskWaitingForASlotSaysSoAndOneSuspendedBeforeItStartedSaysSuspended() {
        let (app, store) = app()
        store.apply([CannedEvents.created(4, "GET", "http://api.internal.example.com:8443/v1/next", at: 100.5)])
        store.apply([CannedEvents.created(5, "GET", "http://api.internal.example.com:8443/v1/later", at: 100.6),
                     CannedEvents.simple(5, .suspended, at: 100.7)])
        let narrow = draw(app, width: 80, height: 24).lines
        XCTAssertTrue(narrow[6].contains("wait "), "created, not started: \(narrow[6])")
        XCTAssertTrue(narrow[7].contains("susp "), "suspended by someone: \(narrow[7])")
        let wide = draw(app, width: 200, height: 24).lines
        XCTAssertTrue(wide[6].contains("waiting"), wide[6])
        store.apply([CannedEvents.simple(4, .resumed, at: 101)])
        XCTAssertTrue(draw(app, width: 80, height: 24).lines[6].contains("run "), "started")
    }

    func testANameColumnAppearsWhenATaskHasANameAndThereIsRoom() {
        let (app, _) = app(named: true)
        let wide = draw(app, width: 140, height: 10).lines
        XCTAssertTrue(wide[2].contains("NAME"), wide[2])
        XCTAssertTrue(wide[3].contains("list-transactions"), wide[3])
        let narrow = draw(app, width: 80, height: 10).lines
        XCTAssertFalse(narrow[2].contains("NAME"), "the path wins at 80 columns: \(narrow[2])")
    }

    func testHostIsShortenedInTheMiddleBeforeThePathWhichKeepsItsEnd() {
        XCTAssertEqual(HostPath.fit(host: "h.test", path: "/a", suffix: "", width: 20), "h.test/a")
        let fitted = HostPath.fit(host: "api.internal.example.com:8443", path: "/v1/accounts/transactions", suffix: "", width: 36)
        XCTAssertEqual(fitted.count, 36)
        XCTAssertTrue(fitted.hasSuffix("/v1/accounts/transactions"), "the host gave way first: \(fitted)")
        XCTAssertTrue(fitted.hasPrefix("api.") && fitted.contains("…"), fitted)
        let tight = HostPath.fit(host: "api.internal.example.com:8443", path: "/v1/accounts/12345/transactions?page=3", suffix: " ↪2", width: 30)
        XCTAssertEqual(tight.count, 30)
        XCTAssertTrue(tight.hasSuffix("page=3 ↪2"), tight)
    }

    func testStatusAndStateCellsAreColouredByClassNotTheWholeRow() {
        let (app, store) = app()
        store.apply([CannedEvents.created(4, "GET", "http://t/x"), CannedEvents.simple(4, .resumed, at: 100.01),
                     CannedEvents.simple(4, .failed(TaskFailure(error: TransferError(code: .cannotConnect, message: "refused"),
                                                          response: nil, bytes: 0, timings: nil, redirects: [])), at: 100.02)])
        let (lines, buffer) = draw(app, width: 120, height: 10)
        func colour(of text: String, row: Int) -> Color {
            let column = TextWidth.of(String(lines[row][..<lines[row].range(of: text)!.lowerBound]))
            return buffer[column, row].style.fg
        }
        XCTAssertEqual(colour(of: " 200", row: 3), .green, lines[3]) // selected: still green, under the highlight
        XCTAssertEqual(colour(of: " 404", row: 4), .indexed(214), lines[4])
        XCTAssertEqual(Color.indexed(214).basicIndex, Color.yellow.paletteIndex, "4xx is yellow with 8 colours")
        XCTAssertEqual(colour(of: " 503", row: 5), .red, lines[5])
        XCTAssertEqual(colour(of: "failed", row: 6), .red, lines[6])
        XCTAssertEqual(colour(of: "GET", row: 6), .default, "the row itself is not coloured: \(lines[6])")
    }

    func testMarksShowAGlyphAndACountAndUClearsThem() {
        let (app, store) = app()
        _ = draw(app, width: 100, height: 10)
        _ = app.handle(.char("m"))
        _ = app.handle(.char("m"))
        var lines = draw(app, width: 100, height: 10).lines
        XCTAssertTrue(lines[0].contains("● 2 marked"), lines[0])
        XCTAssertTrue(lines[3].contains("●1") && lines[4].contains("●2") && !lines[5].contains("●"), "\(lines)")
        _ = app.handle(.char("U"))
        lines = draw(app, width: 100, height: 10).lines
        XCTAssertFalse(lines.joined().contains("●"), "\(lines)")
        XCTAssertTrue(lines[9].contains("cleared 2 marks"), lines[9])
        XCTAssertTrue(store.marks.isEmpty)
    }

    func testFollowKeepsTheSelectionOnTheNewestTaskUntilTheUserMoves() {
        let (app, store) = app()
        _ = draw(app, width: 100, height: 10)
        _ = app.handle(.char("F"))
        var lines = draw(app, width: 100, height: 10).lines
        XCTAssertTrue(lines[0].contains("FOLLOW"), lines[0])
        store.apply(CannedEvents.lifecycle(4, "GET", "http://t/new", status: 200, bytes: 1, totalMs: 1))
        _ = draw(app, width: 100, height: 10)
        XCTAssertEqual(app.selectedID, TaskID(rawValue: 4))
        _ = app.handle(.char("k"))
        lines = draw(app, width: 100, height: 10).lines
        XCTAssertFalse(lines[0].contains("FOLLOW"), lines[0])
        store.apply(CannedEvents.lifecycle(5, "GET", "http://t/newer", status: 200, bytes: 1, totalMs: 1))
        _ = draw(app, width: 100, height: 10)
        XCTAssertEqual(app.selectedID, TaskID(rawValue: 3), "stays where the user put it")
    }
}
