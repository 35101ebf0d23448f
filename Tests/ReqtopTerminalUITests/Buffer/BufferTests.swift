import ReqtopTerminalText
import ReqtopTerminalUI
import XCTest

final class BufferTests: XCTestCase {
    func testSetStringReturnsColumnsUsedAndClipsAtMaxWidth() {
        var buffer = Buffer(width: 8, height: 1)
        XCTAssertEqual(buffer.setString(x: 1, y: 0, "hello world", maxWidth: 5), 5)
        assertLines(buffer, [" hello  "])
    }

    func testWideCharacterThatDoesNotFitAtTheEdgeBecomesABlank() {
        var buffer = Buffer(width: 5, height: 1)
        XCTAssertEqual(buffer.setString(x: 0, y: 0, "xab日本"), 5)
        assertLines(buffer, ["xab日"])
        var clipped = Buffer(width: 5, height: 1)
        XCTAssertEqual(clipped.setString(x: 0, y: 0, "ab日本"), 5)
        assertLines(clipped, ["ab日 "])
        XCTAssertTrue(clipped[3, 0].isContinuation)
        XCTAssertEqual(clipped[4, 0].symbol, " ")
    }

    func testOverwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.setString(x: 0, y: 0, "日本")
        buffer.setString(x: 1, y: 0, "x")
        assertLines(buffer, [" x本"])
        buffer.setString(x: 2, y: 0, "y")
        assertLines(buffer, [" xy "])
    }

    func testSetStringSanitizesControlCharacters() {
        var buffer = Buffer(width: 10, height: 1)
        buffer.setString(x: 0, y: 0, "\u{1B}[2J\tok\u{202E}")
        assertLines(buffer, ["␛[2J ok   "])
    }

    func testCombiningMarksStayInTheirBaseCell() {
        var buffer = Buffer(width: 4, height: 1)
        XCTAssertEqual(buffer.setString(x: 0, y: 0, "e\u{0301}x"), 2)
        XCTAssertEqual(buffer[0, 0].symbol, "e\u{0301}")
        assertLines(buffer, ["e\u{0301}x  "])
    }

    func testSetStyleLaysStyleOverCells() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.setString(x: 0, y: 0, "abc", style: Style(fg: .red))
        buffer.setStyle(Rect(x: 1, y: 0, width: 5, height: 1), Style().reversed)
        XCTAssertEqual(buffer[0, 0].style, Style(fg: .red))
        XCTAssertEqual(buffer[2, 0].style, Style(fg: .red, modifiers: .reverse))
    }

    /// `setPadded` puts exactly the cells `setString` of `TextWidth.pad` does — fast path (printable
    /// ASCII that fits) or not — over cells that already hold something, at every edge.
    func testSetPaddedEqualsSettingThePaddedText() {
        let texts = ["", "ab", "abcdef", "abcdefghij", "héllo", "日本語", "a\u{1B}[31mb", "tab\there", "1234567", "██▌", "–", "ab日", "日本語です", "e\u{301}x", "a\u{200B}b", "👍🏽ok", "🇫🇷🇩🇪", "↪3"]
        let style = Style().bold
        for text in texts {
            for x in [-3, -1, 0, 2, 9, 10, 12] {
                for width in [0, 1, 2, 3, 4, 7] {
                    for alignRight in [false, true] {
                        var expected = Buffer(width: 12, height: 1, fill: Cell("x"))
                        var actual = expected
                        if width > 0 {
                            expected.setString(x: x, y: 0, TextWidth.pad(Sanitizer.singleLine(text), to: width, alignRight: alignRight),
                                               style: style, maxWidth: width)
                        }
                        actual.setPadded(x: x, y: 0, text, width: width, alignRight: alignRight, style: style)
                        XCTAssertEqual(actual, expected, "\(text.debugDescription) x \(x) width \(width) right \(alignRight)")
                    }
                }
            }
        }
    }

}
