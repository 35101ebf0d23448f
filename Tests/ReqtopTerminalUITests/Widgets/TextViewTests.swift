import ReqtopTerminalUI
import XCTest

final class TextViewTests: XCTestCase {
    func testScrolledViewStartsAtTheOffset() {
        var state = TextViewState(offset: 1)
        let buffer = render(width: 5, height: 2) { buffer, area in
            TextView(lines: ["one", "two", "three"]).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["two  ", "three"])
    }

    func testWrappedViewBreaksLongLines() {
        var state = TextViewState()
        let buffer = render(width: 6, height: 4) { buffer, area in
            TextView(lines: ["alpha beta gamma", "z"], wrap: true).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["alpha ", "beta  ", "gamma ", "z     "])
    }

    func testAWrappedIndentedLineKeepsItsIndentOnEveryRow() {
        var state = TextViewState()
        let buffer = render(width: 10, height: 4) { buffer, area in
            TextView(lines: ["  alpha beta gamma", "z"], wrap: true).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["  alpha   ", "  beta    ", "  gamma   ", "z         "])
    }

    func testUntrustedTextIsSplitSanitizedAndTabExpanded() {
        var state = TextViewState()
        let buffer = render(width: 10, height: 2) { buffer, area in
            TextView(text: "a\tb\n\u{1B}]x\u{202E}").render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["a       b ", "␛]x       "])
    }

    func testViewAsksOnlyForVisibleLines() {
        var asked: [Int] = []
        var state = TextViewState(offset: 500)
        _ = render(width: 10, height: 3) { buffer, area in
            TextView(lineCount: 1_000_000) { asked.append($0); return "line \($0)" }.render(area: area, buffer: &buffer, state: &state)
        }
        XCTAssertEqual(asked, [500, 501, 502])
    }

    func testScrollStaysWithinTheText() {
        var state = TextViewState()
        state.scroll(by: -3, lineCount: 10)
        XCTAssertEqual(state.offset, 0)
        state.scroll(by: 50, lineCount: 10)
        XCTAssertEqual(state.offset, 9)
    }

    func testScrollingToTheEndShowsAFullLastPage() {
        let lines = (0..<10).map { "line \($0)" }
        var state = TextViewState(offset: Int.max / 2)
        let buffer = render(width: 7, height: 3) { buffer, area in
            TextView(lines: lines).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["line 7 ", "line 8 ", "line 9 "])
        XCTAssertEqual(state.offset, 7)
        var wrapped = TextViewState(offset: Int.max / 2)
        let wrappedBuffer = render(width: 6, height: 3) { buffer, area in
            TextView(lines: ["a", "b", "long line here"], wrap: true).render(area: area, buffer: &buffer, state: &wrapped)
        }
        assertLines(wrappedBuffer, ["long  ", "line  ", "here  "])
    }

    /// `G` on a body whose last lines wrap into more rows than the page: like `less`, the page is the
    /// last screenful of rows (the first line on it may start part-way), never one row and blanks.
    func testTheLastPageIsFullWhenItsFirstLineWrapsPastTheTop() {
        let cases: [[String]] = [
            ["a", "one two three four five six", "b"],
            [String(repeating: "x", count: 40)], // one line, taller than the page
            ["head", String(repeating: "word ", count: 12), "", "tail"],
        ]
        for lines in cases {
            var all = TextViewState()
            let whole = render(width: 6, height: 60) { buffer, area in
                TextView(lines: lines, wrap: true).render(area: area, buffer: &buffer, state: &all)
            }
            let rows = (0..<60).map { y in (0..<6).map { whole[$0, y].symbol }.joined() }
            let used = rows.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty }! + 1
            var state = TextViewState(offset: Int.max / 2)
            let page = render(width: 6, height: 3) { buffer, area in
                TextView(lines: lines, wrap: true).render(area: area, buffer: &buffer, state: &state)
            }
            assertLines(page, Array(rows[(used - 3)..<used]))
            // One line up from there is an ordinary page that starts at a line's first row.
            state.offset -= 1
            let above = render(width: 6, height: 3) { buffer, area in
                TextView(lines: lines, wrap: true).render(area: area, buffer: &buffer, state: &state)
            }
            if lines.count > 1 { XCTAssertNotEqual((0..<6).map { above[$0, 0].symbol }, (0..<6).map { page[$0, 0].symbol }) }
        }
    }

    func testMatchesAreHighlightedAndSmartCaseDecides() {
        var state = TextViewState()
        var view = TextView(lines: ["Get the gET", "none"])
        view.highlight = TextSearch("get")
        let buffer = render(width: 12, height: 2) { buffer, area in view.render(area: area, buffer: &buffer, state: &state) }
        let reversedColumns = (0..<12).filter { buffer[$0, 0].style.modifiers.contains(.reverse) }
        XCTAssertEqual(reversedColumns, [0, 1, 2, 8, 9, 10])
        XCTAssertFalse((0..<12).contains { buffer[$0, 1].style.modifiers.contains(.reverse) })
        XCTAssertEqual(TextSearch("GET").ranges(in: "Get the gET GET"), [12..<15], "a capital makes the search case-sensitive")
        XCTAssertEqual(TextSearch("get").matchingLines(["a", "GET /", "b get"]), [1, 2])
    }

    func testLinesScrollSidewaysWhenNotWrapped() {
        var state = TextViewState(column: 4)
        let buffer = render(width: 4, height: 1) { buffer, area in
            TextView(lines: ["0123456789"]).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["4567"])
        var wrapped = TextViewState(column: 4)
        _ = render(width: 4, height: 1) { buffer, area in
            TextView(lines: ["0123456789"], wrap: true).render(area: area, buffer: &buffer, state: &wrapped)
        }
        XCTAssertEqual(wrapped.column, 0, "wrapped text has nothing to the side")
    }

    func testHexDumpLinesLookLikeHexdumpC() {
        let bytes = Array("Hello, World!\n".utf8) + [0x00, 0xFF, 0x41]
        XCTAssertEqual(HexDump.lineCount(byteCount: bytes.count), 2)
        XCTAssertEqual(HexDump.line(0, of: bytes), "00000000  48 65 6c 6c 6f 2c 20 57  6f 72 6c 64 21 0a 00 ff  |Hello, World!...|")
        XCTAssertEqual(HexDump.line(1, of: bytes), "00000010  41                                                |A|")
    }

    func testHexDumpView() {
        var state = TextViewState()
        let buffer = render(width: 30, height: 1) { buffer, area in
            TextView(hexDump: [0x48, 0x69, 0x1B]).render(area: area, buffer: &buffer, state: &state)
        }
        assertLines(buffer, ["00000000  48 69 1b            "])
    }
}
