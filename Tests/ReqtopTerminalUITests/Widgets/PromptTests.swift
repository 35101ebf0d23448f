import ReqtopTerminalUI
import XCTest

final class PromptTests: XCTestCase {
    func testInsertMoveAndDelete() {
        var state = PromptState()
        state.insert("helo")
        state.apply(.moveLeft)
        state.apply(.insert("l"))
        XCTAssertEqual(state.text, "hello")
        XCTAssertEqual(state.cursor, 4)
        state.apply(.moveToStart)
        state.apply(.deleteForward)
        state.apply(.moveToEnd)
        state.apply(.deleteBackward)
        XCTAssertEqual(state.text, "ell")
        XCTAssertEqual(state.cursor, 3)
    }

    func testKillToEndKillToStartAndDeleteWord() {
        var state = PromptState(text: "GET https://example.com/a b")
        state.apply(.deleteWordBackward)
        XCTAssertEqual(state.text, "GET https://example.com/a ")
        state.apply(.deleteWordBackward)
        XCTAssertEqual(state.text, "GET ")
        state.insert("x y")
        state.apply(.moveLeft)
        state.apply(.killToEnd)
        XCTAssertEqual(state.text, "GET x ")
        state.apply(.killToStart)
        XCTAssertEqual(state.text, "")
        XCTAssertEqual(state.cursor, 0)
    }

    func testHistoryWalksBackAndReturnsToTheDraft() {
        var state = PromptState()
        state.insert("first")
        XCTAssertEqual(state.submit(), "first")
        state.insert("second")
        _ = state.submit()
        state.insert("draft")
        state.apply(.historyPrevious)
        XCTAssertEqual(state.text, "second")
        state.apply(.historyPrevious)
        state.apply(.historyPrevious)
        XCTAssertEqual(state.text, "first")
        state.apply(.historyNext)
        XCTAssertEqual(state.text, "second")
        state.apply(.historyNext)
        XCTAssertEqual(state.text, "draft")
        XCTAssertEqual(state.history, ["first", "second"])
    }

    func testPromptDrawsLabelTextAndCursor() {
        var state = PromptState(text: "abc")
        let prompt = Prompt(label: "> ")
        let buffer = render(width: 10, height: 1) { buffer, area in prompt.render(area: area, buffer: &buffer, state: &state) }
        assertLines(buffer, ["> abc     "])
        XCTAssertEqual(prompt.cursorPosition(area: buffer.area, state: state).x, 5)
    }

    func testLongTextScrollsToKeepTheCursorVisible() {
        var state = PromptState(text: "abcdefgh")
        let prompt = Prompt(label: "> ")
        let buffer = render(width: 6, height: 1) { buffer, area in prompt.render(area: area, buffer: &buffer, state: &state) }
        assertLines(buffer, ["> fgh "])
        XCTAssertEqual(prompt.cursorPosition(area: buffer.area, state: state).x, 5)
    }
}
