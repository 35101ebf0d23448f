import Foundation
import ReqtopHTTPModel
import XCTest

final class JSONTests: XCTestCase {
    func testLocatedParseRecordsWhereEachValueStartsAndMembersAtTheirKeys() throws {
        let text = "{\"é\": [1,\n  \"x\", {\"k\": null}],\n \"b\": true}"
        let json = try JSONParser.parseLocated(text)
        XCTAssertEqual(json.value, try JSONParser.parse(text), "positions are not part of the value")
        XCTAssertEqual([json.line, json.column], [1, 1])
        let array = try XCTUnwrap(json["é"])
        XCTAssertEqual([array.line, array.column], [1, 2], "a member is located at its key")
        XCTAssertEqual(array.children.map { [$0.line, $0.column] }, [[1, 8], [2, 3], [2, 8]])
        XCTAssertEqual(array.children[2]["k"].map { [$0.line, $0.column] }, [2, 9])
        XCTAssertEqual(json["b"].map { [$0.line, $0.column] }, [3, 2])
        XCTAssertNil(json["missing"])
    }

    func testSyntaxErrorsAreReportedAtLineAndColumnAfterLocatedValues() {
        XCTAssertThrowsError(try JSONParser.parseLocated("[\"ü\", 1,\n  \"a\" 2]")) { error in
            let error = error as? JSONSyntaxError
            XCTAssertEqual(error.map { [$0.line, $0.column] }, [2, 7])
            XCTAssertEqual(error?.message, "expected ',' or ']' in array")
        }
    }

    func testTheEscaperWritesWhatJSONSerializationWrites() throws {
        let odd = "quote \" backslash \\ slash / tab \t nl \n cr \r bs \u{8} ff \u{c} nul \u{0} esc \u{1b} del \u{7f} é 😀 \u{2028}"
        let reference = try JSONSerialization.data(withJSONObject: [odd], options: [.withoutEscapingSlashes])
        XCTAssertEqual("[" + JSONEscaping.quoted(odd) + "]", String(decoding: reference, as: UTF8.self))
        XCTAssertEqual(JSONValue.string(odd).jsonText, JSONEscaping.quoted(odd))
        XCTAssertEqual(try JSONParser.parse(JSONEscaping.quoted(odd)), .string(odd))
    }

    /// Clean runs are skipped eight bytes at a time: every character that needs an escape is found
    /// at every offset of a word, beside bytes that sit next to it in value (0x1F/0x20, 0x21/0x23, 0x5B/0x5D, UTF-8).
    func testEveryEscapeIsFoundAtEveryOffset() throws {
        let specials: [Character] = ["\"", "\\", "\u{0}", "\u{1f}", "\n", "\u{8}"]
        let fillers = ["a", " ", "!", "#", "[", "]", "é", "~", "\u{7f}"]
        for length in 0...19 {
            for filler in fillers {
                for special in specials {
                    for offset in 0..<max(1, length) {
                        var characters = Array(repeating: Character(filler), count: length)
                        if length > 0 { characters[offset] = special }
                        let text = String(characters)
                        let reference = try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
                        XCTAssertEqual("[" + JSONEscaping.quoted(text) + "]", String(decoding: reference, as: UTF8.self), text.debugDescription)
                    }
                }
            }
        }
    }
}
