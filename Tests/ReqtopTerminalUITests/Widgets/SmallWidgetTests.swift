import ReqtopTerminalUI
import XCTest

final class SmallWidgetTests: XCTestCase {
    func testGaugeUsesEighthBlocks() {
        XCTAssertEqual(Gauge.bar(ratio: 0.55, width: 10), "█████▌    ")
        XCTAssertEqual(Gauge.bar(ratio: 1, width: 4), "████")
        XCTAssertEqual(Gauge.bar(ratio: 0, width: 3), "   ")
        XCTAssertEqual(Gauge.bar(ratio: 1.0 / 80, width: 10), "▏         ")
        XCTAssertEqual(Gauge.bar(ratio: .nan, width: 2), "  ")
    }

    func testGaugeDrawsLabelAfterTheBar() {
        let buffer = render(width: 10, height: 1) { buffer, area in
            Gauge(ratio: 0.55, label: "55%").render(area: area, buffer: &buffer)
        }
        assertLines(buffer, ["███▎   55%"])
    }

    func testTabsHighlightTheSelectedTitle() {
        let buffer = render(width: 12, height: 1) { buffer, area in
            Tabs(["A", "B"], selected: 1).render(area: area, buffer: &buffer)
        }
        assertLines(buffer, [" A │ B      "])
        XCTAssertFalse(buffer[1, 0].style.modifiers.contains(.reverse))
        XCTAssertTrue(buffer[5, 0].style.modifiers.contains(.reverse))
    }

    func testStatusLinePutsRightTextAtTheEdgeWhenItFits() {
        let wide = render(width: 12, height: 1) { buffer, area in
            StatusLine(left: "ok", right: "q quit").render(area: area, buffer: &buffer)
        }
        assertLines(wide, ["ok    q quit"])
        let narrow = render(width: 6, height: 1) { buffer, area in
            StatusLine(left: "ok", right: "q quit").render(area: area, buffer: &buffer)
        }
        assertLines(narrow, ["ok    "])
        let long = render(width: 20, height: 1) { buffer, area in
            StatusLine(left: "a very long hint line here", right: "? help").render(area: area, buffer: &buffer)
        }
        assertLines(long, ["a very long … ? help"]) // a left part that does not fit ends in …; the right part stays
    }

    func testSparklineScalesToTheMaximum() {
        let buffer = render(width: 6, height: 1) { buffer, area in
            Sparkline([0, 1, 2, 4, 8], maximum: 8).render(area: area, buffer: &buffer)
        }
        assertLines(buffer, [" ▁▂▄█ "])
    }

    func testTallSparklineStacksFullBlocks() {
        let buffer = render(width: 3, height: 2) { buffer, area in
            Sparkline([1, 2, 4]).render(area: area, buffer: &buffer)
        }
        assertLines(buffer, ["  █", "▄██"])
    }

    func testSparklineShowsTheNewestValuesWhenTooMany() {
        let buffer = render(width: 2, height: 1) { buffer, area in
            Sparkline([8, 8, 8, 0, 8], maximum: 8).render(area: area, buffer: &buffer)
        }
        assertLines(buffer, [" █"])
    }
}
