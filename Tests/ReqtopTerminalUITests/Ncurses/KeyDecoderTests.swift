import CNcursesw
import ReqtopNcurses
import ReqtopTerminalUI
import XCTest

final class KeyDecoderTests: XCTestCase {
    private func function(_ code: Int32) -> Key? { KeyDecoder.decode(isFunctionKey: true, code: UInt32(bitPattern: code)) }
    private func text(_ code: UInt32) -> Key? { KeyDecoder.decode(isFunctionKey: false, code: code) }

    func testCursorAndPagingKeys() {
        XCTAssertEqual(function(cncurses_key_up()), .up)
        XCTAssertEqual(function(cncurses_key_down()), .down)
        XCTAssertEqual(function(cncurses_key_left()), .left)
        XCTAssertEqual(function(cncurses_key_right()), .right)
        XCTAssertEqual(function(cncurses_key_ppage()), .pageUp)
        XCTAssertEqual(function(cncurses_key_npage()), .pageDown)
        XCTAssertEqual(function(cncurses_key_home()), .home)
        XCTAssertEqual(function(cncurses_key_end()), .end)
        XCTAssertEqual(function(cncurses_key_dc()), .delete)
        XCTAssertEqual(function(cncurses_key_resize()), .resize)
        XCTAssertEqual(function(cncurses_key_f(5)), .function(5))
    }

    func testControlCharacters() {
        XCTAssertEqual(text(13), .enter)
        XCTAssertEqual(text(10), .enter)
        XCTAssertEqual(text(27), .escape)
        XCTAssertEqual(text(127), .backspace)
        XCTAssertEqual(function(cncurses_key_backspace()), .backspace)
        XCTAssertEqual(text(9), .tab)
        XCTAssertEqual(text(1), .ctrl("a"))
        XCTAssertEqual(text(23), .ctrl("w"))
    }

    func testUTF8TextArrivesAsCharacters() {
        XCTAssertEqual(text(0x71), .char("q"))
        XCTAssertEqual(text(0x65E5), .char("日"))
        XCTAssertEqual(text(0x1F44D), .char("👍"))
    }

    func testPromptKeysMapToEdits() {
        XCTAssertEqual(Key.ctrl("a").promptEdit, .moveToStart)
        XCTAssertEqual(Key.ctrl("e").promptEdit, .moveToEnd)
        XCTAssertEqual(Key.ctrl("k").promptEdit, .killToEnd)
        XCTAssertEqual(Key.ctrl("u").promptEdit, .killToStart)
        XCTAssertEqual(Key.ctrl("w").promptEdit, .deleteWordBackward)
        XCTAssertEqual(Key.home.promptEdit, .moveToStart)
        XCTAssertEqual(Key.up.promptEdit, .historyPrevious)
        XCTAssertEqual(Key.char("x").promptEdit, .insert("x"))
        XCTAssertNil(Key.escape.promptEdit)
    }

    /// Feeds text as `wget_wch` would return it, then ends the read.
    private func decode(_ text: String, into decoder: inout InputDecoder) -> [Key] {
        var keys: [Key] = []
        for scalar in text.unicodeScalars { keys += decoder.feed(isFunctionKey: false, code: scalar.value) }
        return keys + decoder.flush()
    }

    func testABracketedPasteIsOneTextNotKeys() {
        var decoder = InputDecoder()
        let keys = decode("a\u{1B}[200~q\rx\nGET /\u{1B}[201~b", into: &decoder)
        XCTAssertEqual(keys, [.char("a"), .paste("q\nx\nGET /"), .char("b")])
    }

    func testAPasteMaySpanReadsAndAnEscapeAloneIsTheKey() {
        var decoder = InputDecoder()
        var keys: [Key] = []
        for scalar in "\u{1B}[200~ab".unicodeScalars { keys += decoder.feed(isFunctionKey: false, code: scalar.value) }
        XCTAssertEqual(keys, [], "still pasting")
        for scalar in "c\u{1B}[201~".unicodeScalars { keys += decoder.feed(isFunctionKey: false, code: scalar.value) }
        XCTAssertEqual(keys, [.paste("abc")])
        XCTAssertEqual(decode("\u{1B}", into: &decoder), [.escape])
        XCTAssertEqual(decode("\u{1B}[x", into: &decoder), [.escape, .char("["), .char("x")], "not a paste marker: the keys as typed")
    }

    func testAPastePastTheLimitIsCutSaysSoAndStillEnds() {
        var decoder = InputDecoder()
        var keys: [Key] = []
        for scalar in "\u{1B}[200~".unicodeScalars { keys += decoder.feed(isFunctionKey: false, code: scalar.value) }
        for _ in 0..<(InputDecoder.pasteLimit + 100) { keys += decoder.feed(isFunctionKey: false, code: UInt32(UInt8(ascii: "a"))) }
        for scalar in "\u{1B}[201~x".unicodeScalars { keys += decoder.feed(isFunctionKey: false, code: scalar.value) }
        XCTAssertEqual(keys.count, 2, "the paste, then the x typed after it")
        guard case .paste(let text) = keys.first else { return XCTFail("\(keys.first as Any)") }
        XCTAssertTrue(text.hasSuffix("[reqtop: the paste was cut at \(InputDecoder.pasteLimit) characters]"))
        XCTAssertEqual(text.prefix { $0 == "a" }.count, InputDecoder.pasteLimit)
        XCTAssertEqual(keys.last, .char("x"))
    }

    func testExitCodesFollowShellConventions() {
        XCTAssertEqual(ExitReason.quit.exitCode, 0)
        XCTAssertEqual(ExitReason.signal(SIGINT).exitCode, 130)
        XCTAssertEqual(ExitReason.signal(SIGTERM).exitCode, 143)
    }
}
