import ReqtopTerminalUI
import XCTest

/// A whole screen composed of the kit's widgets, compared with a recorded snapshot.
final class DashboardSnapshotTests: XCTestCase {
    private func drawDashboard(_ frame: inout Frame, tick: Int, state: inout TableState) {
        let parts = Layout.vertical([.fixed(1), .fixed(1), .fill(1), .fixed(1), .fixed(1)]).split(frame.area)
        frame.render(Tabs(["Tasks", "Events", "About"], selected: 0), in: parts[0])
        frame.render(Gauge(ratio: Double(tick) / 10, label: "\(tick * 10)%"), in: parts[1])
        let source = ClosureTableDataSource(rowCount: 1_000) { i in
            TableRow(["\(i)", i % 2 == 0 ? "GET" : "POST", "/items/\(i)?q=\u{1B}[2J日本", "\(i * 100) B"])
        }
        let table = Table(columns: [
            TableColumn("id", width: .fixed(4), alignment: .right),
            TableColumn("method", width: .fixed(6)),
            TableColumn("path", width: .flex(1)),
            TableColumn("size", width: .fixed(7), alignment: .right),
        ], source: source)
        frame.render(table, in: parts[2], state: &state)
        frame.render(Sparkline([1, 3, 2, 5, 8, 4, 6, Double(tick)], maximum: 8), in: parts[3])
        frame.render(StatusLine(left: "tick \(tick)", right: "q quit"), in: parts[4])
    }

    func testDashboardScreenMatchesSnapshot() {
        let backend = TestBackend(width: 40, height: 10)
        let terminal = Terminal(backend: backend)
        var state = TableState(selected: 7)
        terminal.draw { drawDashboard(&$0, tick: 3, state: &state) }
        assertSnapshot(backend.lines, named: "dashboard-40x10")
    }

    func testDashboardUpdateSendsOnlyTheCellsThatChanged() {
        let backend = TestBackend(width: 40, height: 10)
        let terminal = Terminal(backend: backend)
        var state = TableState(selected: 7)
        terminal.draw { drawDashboard(&$0, tick: 3, state: &state) }
        let report = terminal.draw { drawDashboard(&$0, tick: 4, state: &state) }
        XCTAssertFalse(report.fullRedraw)
        XCTAssertLessThan(report.cellsWritten, 20, "only the gauge, sparkline and status text change")
        XCTAssertGreaterThan(report.cellsWritten, 0)
    }
}
