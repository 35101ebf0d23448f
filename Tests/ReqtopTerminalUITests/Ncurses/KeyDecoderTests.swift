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

    func testExitCodesFollowShellConventions() {
        XCTAssertEqual(ExitReason.quit.exitCode, 0)
        XCTAssertEqual(ExitReason.signal(SIGINT).exitCode, 130)
        XCTAssertEqual(ExitReason.signal(SIGTERM).exitCode, 143)
    }
}
