import ReqtopTerminalUI
import XCTest

/// A data source that records which rows it was asked for.
private final class CountingSource: TableDataSource {
    let rowCount: Int
    private(set) var requested: [Int] = []
    init(rowCount: Int) { self.rowCount = rowCount }
    func row(at index: Int) -> TableRow {
        requested.append(index)
        return TableRow(["\(index)", "row \(index)"])
    }
}

final class TableTests: XCTestCase {
    private let columns = [TableColumn("id", width: .fixed(3), alignment: .right), TableColumn("name", width: .flex(1))]

    func testTableDrawsHeaderAndRowsInColumns() {
        let table = Table(columns: columns, source: ArrayTableDataSource([
            TableRow(["1", "alpha"]), TableRow(["2", "a very long name"]), TableRow(["30", "γ 日本"]),
        ]))
        var state = TableState()
        let buffer = render(width: 12, height: 4) { buffer, area in table.render(area: area, buffer: &buffer, state: &state) }
        assertLines(buffer, [
            " id name    ",
            "  1 alpha   ",
            "  2 a very …",
            " 30 γ 日本  ",
        ])
    }

    func testSelectedRowIsHighlightedAcrossTheRow() {
        let table = Table(columns: columns, source: ArrayTableDataSource([TableRow(["1", "a"]), TableRow(["2", "b"])]))
        var state = TableState(selected: 1)
        let buffer = render(width: 8, height: 3) { buffer, area in table.render(area: area, buffer: &buffer, state: &state) }
        XCTAssertFalse(buffer[0, 1].style.modifiers.contains(.reverse))
        XCTAssertTrue((0..<8).allSatisfy { buffer[$0, 2].style.modifiers.contains(.reverse) })
    }

    func testLargeTableAsksOnlyForVisibleRows() {
        let source = CountingSource(rowCount: 100_000)
        let table = Table(columns: columns, source: source)
        var state = TableState(selected: 50_000)
        let buffer = render(width: 120, height: 40) { buffer, area in table.render(area: area, buffer: &buffer, state: &state) }
        XCTAssertEqual(source.requested.count, 39)
        XCTAssertEqual(source.requested, Array(state.offset..<state.offset + 39))
        XCTAssertTrue(source.requested.contains(50_000))
        XCTAssertTrue(buffer.lines[39].hasPrefix("50… row 50000"), buffer.lines[39])
    }

    func testSelectionMovesKeepTheSelectedRowVisible() {
        var state = TableState(selected: 0)
        state.moveSelection(by: 5, rowCount: 100)
        state.scrollToSelection(visibleRows: 3, rowCount: 100)
        XCTAssertEqual(state.selected, 5)
        XCTAssertEqual(state.offset, 3)
        state.moveSelection(by: -4, rowCount: 100)
        state.scrollToSelection(visibleRows: 3, rowCount: 100)
        XCTAssertEqual(state.offset, 1)
        state.moveSelection(by: 1_000, rowCount: 100)
        state.scrollToSelection(visibleRows: 3, rowCount: 100)
        XCTAssertEqual(state.selected, 99)
        XCTAssertEqual(state.offset, 97)
    }

    func testSelectionBeyondAShrunkTableIsClamped() {
        var state = TableState(selected: 10, offset: 8)
        state.scrollToSelection(visibleRows: 5, rowCount: 3)
        XCTAssertEqual(state.selected, 2)
        XCTAssertEqual(state.offset, 0)
    }

    func testUntrustedCellTextIsSanitized() {
        let table = Table(columns: columns, source: ArrayTableDataSource([TableRow(["1", "\u{1B}[31m\tx"])]), showsHeader: false)
        var state = TableState()
        let buffer = render(width: 12, height: 1) { buffer, area in table.render(area: area, buffer: &buffer, state: &state) }
        assertLines(buffer, ["  1 ␛[31m x "])
    }
}
