import Foundation
import ReqtopTerminalUI
import XCTest

final class SanitizerTests: XCTestCase {
    func testEscapeSequencesBecomeVisibleControlPictures() {
        XCTAssertEqual(Sanitizer.singleLine("a\u{1B}[31mred\u{1B}[0m"), "a␛[31mred␛[0m")
        XCTAssertEqual(Sanitizer.singleLine("\u{1B}]0;pwned\u{07}"), "␛]0;pwned␇")
        XCTAssertEqual(Sanitizer.singleLine("\u{00}\u{01}\u{1F}"), "\u{2400}\u{2401}\u{241F}")
    }

    func testC1ControlsIncludingSingleByteCSIBecomeReplacementCharacter() {
        XCTAssertEqual(Sanitizer.singleLine("\u{9B}31mx\u{85}"), "\u{FFFD}31mx\u{FFFD}")
    }

    func testDeleteBecomesControlPicture() {
        XCTAssertEqual(Sanitizer.singleLine("a\u{7F}b"), "a␡b")
    }

    func testBidiControlsAndByteOrderMarkAreRemoved() {
        XCTAssertEqual(Sanitizer.singleLine("user\u{202E}gpj.exe"), "usergpj.exe")
        XCTAssertEqual(Sanitizer.singleLine("\u{FEFF}a\u{200E}b\u{200F}c\u{2066}d\u{2069}e\u{061C}f\u{202A}"), "abcdef")
    }

    func testTabCarriageReturnAndLineFeedBecomeSpacesInSingleLineText() {
        XCTAssertEqual(Sanitizer.singleLine("a\tb\r\nc"), "a b  c")
    }

    func testMultiLineTextSplitsAtLineFeedsAndExpandsTabs() {
        XCTAssertEqual(Sanitizer.lines("ab\tc\r\nx\u{1B}y\n"), ["ab      c", "x␛y", ""])
        XCTAssertEqual(Sanitizer.lines("日\tx"), ["日      x"])
    }

    func testInvalidUTF8BecomesReplacementCharacter() {
        XCTAssertEqual(Sanitizer.sanitize(bytes: [0x61, 0xFF, 0x62, 0xC3], singleLine: true), "a\u{FFFD}b\u{FFFD}")
        XCTAssertEqual(Sanitizer.sanitize(bytes: Data("ok\n\u{1B}".utf8), singleLine: false), "ok\n␛")
    }

    func testPlainTextAndNonASCIIPassUnchanged() {
        XCTAssertEqual(Sanitizer.singleLine("GET /index.html"), "GET /index.html")
        XCTAssertEqual(Sanitizer.singleLine("日本 café 👍"), "日本 café 👍")
    }

    func testEverySanitizedScalarIsPrintable() {
        let hostile = (0...0x9F).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\u{202E}\u{FEFF}"
        let safe = Sanitizer.singleLine(hostile)
        XCTAssertFalse(safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
    }
}
