import ReqtopTerminalUI
import XCTest

final class TerminalTests: XCTestCase {
    func testFirstFrameIsAFullRedraw() {
        let backend = TestBackend(width: 6, height: 2)
        let terminal = Terminal(backend: backend)
        let report = terminal.draw { $0.buffer.setString(x: 0, y: 0, "hi") }
        XCTAssertTrue(report.fullRedraw)
        XCTAssertEqual(backend.lastFlushCellCount, 12)
        assertLines(backend, ["hi    ", "      "])
    }

    func testSecondFrameSendsOnlyTheChangedCells() {
        let backend = TestBackend(width: 10, height: 2)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "count: 9") }
        let same = terminal.draw { $0.buffer.setString(x: 0, y: 0, "count: 9") }
        XCTAssertEqual(same.cellsWritten, 0)
        let next = terminal.draw { $0.buffer.setString(x: 0, y: 0, "count: 10") }
        XCTAssertFalse(next.fullRedraw)
        XCTAssertEqual(backend.cellsWrittenPerFlush, [20, 0, 2])
        assertLines(backend, ["count: 10 ", "          "])
    }

    func testWideCharacterShrinkingToNarrowRepaintsBothColumns() {
        let backend = TestBackend(width: 4, height: 1)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "日本") }
        assertLines(backend, ["日本"])
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "ab本") }
        assertLines(backend, ["ab本"])
        XCTAssertEqual(backend.lastFlushCellCount, 2)
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "a日") }
        assertLines(backend, ["a日 "])
    }

    func testResizeCausesAFullRedrawAtTheNewSize() {
        let backend = TestBackend(width: 6, height: 2)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "\($0.area.width)x\($0.area.height)") }
        backend.resize(width: 4, height: 3)
        let report = terminal.draw { $0.buffer.setString(x: 0, y: 0, "\($0.area.width)x\($0.area.height)") }
        XCTAssertTrue(report.fullRedraw)
        XCTAssertEqual(report.cellsWritten, 12)
        XCTAssertEqual(backend.clearCount, 2)
        assertLines(backend, ["4x3 ", "    ", "    "])
    }

    func testInvalidateRepaintsEveryCell() {
        let backend = TestBackend(width: 3, height: 1)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.buffer.setString(x: 0, y: 0, "abc") }
        terminal.invalidate()
        XCTAssertEqual(terminal.draw { $0.buffer.setString(x: 0, y: 0, "abc") }.cellsWritten, 3)
    }

    func testFrameCursorShowsAndHidesTheCursor() {
        let backend = TestBackend(width: 5, height: 1)
        let terminal = Terminal(backend: backend)
        terminal.draw { $0.setCursor(x: 3, y: 0) }
        XCTAssertTrue(backend.cursorVisible)
        XCTAssertEqual(backend.cursor.x, 3)
        terminal.draw { _ in }
        XCTAssertFalse(backend.cursorVisible)
    }

    func testZeroSizedTerminalDrawsNothingWithoutCrashing() {
        let backend = TestBackend(width: 0, height: 0)
        let terminal = Terminal(backend: backend)
        let report = terminal.draw { frame in
            frame.buffer.setString(x: 0, y: 0, "x")
            frame.render(StatusLine(left: "status"), in: frame.area)
        }
        XCTAssertEqual(report.cellsWritten, 0)
    }
}
