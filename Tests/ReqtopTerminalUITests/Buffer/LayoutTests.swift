import ReqtopTerminalUI
import XCTest

final class LayoutTests: XCTestCase {
    func testFixedPartsAroundAFillPart() {
        let parts = Layout.vertical([.fixed(1), .fill(1), .fixed(2)]).split(Rect(x: 0, y: 0, width: 20, height: 10))
        XCTAssertEqual(parts, [
            Rect(x: 0, y: 0, width: 20, height: 1),
            Rect(x: 0, y: 1, width: 20, height: 7),
            Rect(x: 0, y: 8, width: 20, height: 2),
        ])
    }

    func testPercentageAndWeightedFill() {
        XCTAssertEqual(Layout.lengths(total: 11, [.percentage(50), .fill(1)]), [5, 6])
        XCTAssertEqual(Layout.lengths(total: 9, [.fill(1), .fill(2)]), [3, 6])
        XCTAssertEqual(Layout.lengths(total: 10, [.fill(1), .fill(1), .fill(1)]), [3, 3, 4])
    }

    func testFixedPartsThatOverflowAreClipped() {
        XCTAssertEqual(Layout.lengths(total: 10, [.fixed(8), .fixed(8), .fill(1)]), [8, 2, 0])
    }

    func testHorizontalSplitWithSpacing() {
        let parts = Layout.horizontal([.fixed(3), .fill(1)], spacing: 1).split(Rect(x: 2, y: 1, width: 10, height: 2))
        XCTAssertEqual(parts, [Rect(x: 2, y: 1, width: 3, height: 2), Rect(x: 6, y: 1, width: 6, height: 2)])
    }
}
