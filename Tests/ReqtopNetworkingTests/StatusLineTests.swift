@testable import ReqtopNetworking
import ReqtopHTTPModel
import XCTest

/// A response's status line, read from the bytes libcurl hands over (the end-to-end cases are in
/// `HostileResponseTests.testStatusLinesAreReadAsWritten`).
final class StatusLineTests: XCTestCase {
    private func head(_ bytes: [UInt8]) -> HTTPResponseHead {
        bytes.withUnsafeBytes { TransferState.statusLine($0, url: HTTPURL(string: "http://h.test/")!, size: bytes.count + 2) }
    }

    private func head(_ line: String) -> HTTPResponseHead { head(Array(line.utf8)) }

    func testVersionStatusAndReasonAsWritten() {
        let cases: [(line: String, version: String, status: Int, reason: String)] = [
            ("HTTP/1.1 200 OK", "1.1", 200, "OK"),
            ("HTTP/2 200 ", "2", 200, ""),
            ("HTTP/1.1 404 Not  Found ", "1.1", 404, "Not  Found "), // inner and trailing spaces of the reason are kept
            ("HTTP/1.1 200  OK", "1.1", 200, "OK"), // spaces between the words are separators
            ("HTTP/1.1 2x0 OK", "1.1", 0, "OK"), // not a number: 0
            ("HTTP/1.1 +200 OK", "1.1", 0, "OK"),
            ("HTTP/1.1 0000000200 OK", "1.1", 0, "OK"), // more digits than any status has
            ("HTTP/1.1", "1.1", 0, ""),
            ("HTTP/", "", 0, ""),
        ]
        for expected in cases {
            let head = head(expected.line)
            XCTAssertEqual(head.httpVersion, expected.version, expected.line)
            XCTAssertEqual(head.status, expected.status, expected.line)
            XCTAssertEqual(head.reason, expected.reason, expected.line)
            XCTAssertEqual(head.size, expected.line.utf8.count + 2, "the size counts the line ending too")
        }
    }

    func testAReasonThatIsNotUTF8KeepsItsPlaceWithReplacementCharacters() {
        let head = head(Array("HTTP/1.1 200 ".utf8) + [0x4F, 0xFF, 0x4B])
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.reason, "O\u{FFFD}K")
    }
}
