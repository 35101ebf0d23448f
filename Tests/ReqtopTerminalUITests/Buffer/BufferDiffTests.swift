import ReqtopTerminalUI
import XCTest

final class BufferDiffTests: XCTestCase {
    func testIdenticalBuffersHaveNoChanges() {
        var a = Buffer(width: 10, height: 3)
        a.setString(x: 0, y: 1, "same")
        XCTAssertEqual(BufferDiff.changes(from: a, to: a), [])
    }

    func testOnlyChangedCellsAreEmitted() {
        var a = Buffer(width: 10, height: 3)
        a.setString(x: 0, y: 1, "status: ok")
        var b = a
        b.setString(x: 8, y: 1, "no")
        XCTAssertEqual(BufferDiff.changes(from: a, to: b), [
            CellChange(x: 8, y: 1, cell: Cell("n")),
            CellChange(x: 9, y: 1, cell: Cell("o")),
        ])
    }

    func testStyleChangeAloneIsAChange() {
        var a = Buffer(width: 3, height: 1)
        a.setString(x: 0, y: 0, "abc")
        var b = a
        b.setStyle(Rect(x: 1, y: 0, width: 1, height: 1), Style().bold)
        XCTAssertEqual(BufferDiff.changes(from: a, to: b).map(\.x), [1])
    }

    func testWideCharacterIsEmittedOnceWithoutItsContinuation() {
        let a = Buffer(width: 4, height: 1)
        var b = a
        b.setString(x: 0, y: 0, "日本")
        XCTAssertEqual(BufferDiff.changes(from: a, to: b).map(\.x), [0, 2])
    }

    func testReplacingAWideCharacterWithNarrowOnesEmitsBothColumns() {
        var a = Buffer(width: 2, height: 1)
        a.setString(x: 0, y: 0, "日")
        var b = Buffer(width: 2, height: 1)
        b.setString(x: 0, y: 0, "ab")
        XCTAssertEqual(BufferDiff.changes(from: a, to: b).map(\.cell.symbol), ["a", "b"])
    }

    func testDifferentSizesEmitEveryCell() {
        let a = Buffer(width: 2, height: 2)
        let b = Buffer(width: 3, height: 2)
        XCTAssertEqual(BufferDiff.changes(from: a, to: b).count, 6)
    }
}
