import ReqtopTerminalUI
import XCTest

final class TextWidthTests: XCTestCase {
    func testASCIIIsOneColumnPerCharacter() {
        XCTAssertEqual(TextWidth.of("hello"), 5)
        XCTAssertEqual(TextWidth.of(""), 0)
    }

    func testCJKTakesTwoColumns() {
        XCTAssertEqual(TextWidth.of("日本語"), 6)
        XCTAssertEqual(TextWidth.of("a日b"), 4)
    }

    func testEmojiAndEmojiWithVariationSelectorTakeTwoColumns() {
        XCTAssertEqual(TextWidth.of("👍"), 2)
        XCTAssertEqual(TextWidth.of("\u{2764}\u{FE0F}"), 2)
        XCTAssertEqual(TextWidth.of("🇺🇸"), 2)
    }

    func testCombiningMarksTakeNoColumns() {
        XCTAssertEqual(TextWidth.of("e\u{0301}"), 1)
        XCTAssertEqual(TextWidth.of("a\u{0308}\u{0323}b"), 2)
        XCTAssertEqual(TextWidth.of(Character("\u{0301}")), 0)
    }

    func testTruncateEndsWithEllipsisWithinWidth() {
        XCTAssertEqual(TextWidth.truncate("hello world", to: 5), "hell…")
        XCTAssertEqual(TextWidth.truncate("hello", to: 5), "hello")
        XCTAssertEqual(TextWidth.truncate("日本語", to: 4), "日…")
        XCTAssertEqual(TextWidth.truncate("abc", to: 0), "")
    }

    func testPadFillsOrCutsToExactWidth() {
        XCTAssertEqual(TextWidth.pad("ab", to: 4), "ab  ")
        XCTAssertEqual(TextWidth.pad("ab", to: 4, alignRight: true), "  ab")
        XCTAssertEqual(TextWidth.pad("日本語", to: 5), "日本…")
    }

    func testWrapBreaksAtSpacesAndSplitsLongWords() {
        XCTAssertEqual(TextWidth.wrap("the quick brown fox", width: 10), ["the quick", "brown fox"])
        XCTAssertEqual(TextWidth.wrap("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(TextWidth.wrap("日本語テキスト", width: 5), ["日本", "語テ", "キス", "ト"])
        XCTAssertEqual(TextWidth.wrap("    indented line", width: 12), ["    indented", "line"], "leading spaces stay")
        XCTAssertEqual(TextWidth.wrap("aaa  bbb", width: 3), ["aaa", "bbb"], "a space at a break does not make a blank row")
        XCTAssertEqual(TextWidth.wrap("aaa  bb", width: 3), ["aaa", "bb"])
    }
}
