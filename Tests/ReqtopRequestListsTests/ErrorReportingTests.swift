import ReqtopRequestLists
import XCTest

/// Every malformed input gets file, line, column, the offending line and a caret.
final class ErrorReportingTests: XCTestCase {
    private func assertError(_ error: RequestListError?, file expectedFile: String, line: Int, column: Int, mentions: String,
                             sourceLine: UInt = #line) {
        guard let error else { return XCTFail("no error", line: sourceLine) }
        XCTAssertEqual(error.file, expectedFile, line: sourceLine)
        XCTAssertEqual(error.line, line, "\(error)", line: sourceLine)
        XCTAssertEqual(error.column, column, "\(error)", line: sourceLine)
        XCTAssertTrue(error.message.contains(mentions), "\(error)", line: sourceLine)
        let rendered = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rendered.count, 3, line: sourceLine)
        XCTAssertTrue(rendered[0].hasPrefix("\(expectedFile):\(line):\(column): error: "), line: sourceLine)
        XCTAssertEqual(String(rendered[2]), String(repeating: " ", count: column - 1) + "^", line: sourceLine)
    }

    func testUnterminatedVariable() {
        let path = Fixtures.path("http/unterminated-variable.http")
        assertError(Fixtures.loadError("http/unterminated-variable.http"), file: path, line: 3, column: 28, mentions: "unterminated '{{'")
    }

    func testUnknownVariableIsReportedAtItsPlaceholder() {
        let path = Fixtures.path("http/unknown-variable.http")
        assertError(Fixtures.loadError("http/unknown-variable.http"), file: path, line: 4, column: 23, mentions: "unknown variable 'tokn'")
    }

    func testBadRequestLine() {
        let path = Fixtures.path("http/bad-request-line.http")
        assertError(Fixtures.loadError("http/bad-request-line.http"), file: path, line: 2, column: 1, mentions: "'FETCH(1)' is not an HTTP method")
    }

    func testMissingBodyFile() {
        let path = Fixtures.path("http/missing-body-file.http")
        assertError(Fixtures.loadError("http/missing-body-file.http"), file: path, line: 4, column: 3, mentions: "does-not-exist.json")
    }

    func testInvalidJSONInEnvironmentFile() {
        let envPath = Fixtures.path("env-bad/http-client.env.json")
        do {
            _ = try Environments.load(besides: Fixtures.path("env-bad/api.http"), name: "dev")
            XCTFail("expected an error")
        } catch {
            assertError(error, file: envPath, line: 4, column: 14, mentions: "invalid JSON")
        }
    }

    func testInvalidJSONInHAR() {
        let path = Fixtures.path("har/invalid-json.har")
        assertError(Fixtures.loadError("har/invalid-json.har"), file: path, line: 5, column: 73, mentions: "invalid JSON")
    }

    func testHARWithoutRequiredFieldNamesTheField() {
        let error = Fixtures.loadError("har/missing-url.har")
        XCTAssertTrue(error?.message.contains("'url'") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("entries[0]") == true, "\(String(describing: error))")
        XCTAssertEqual(error?.line, 5, "points at the entry's request")
        XCTAssertEqual(error?.column, 9)
    }

    func testUnbalancedQuoteInCurl() {
        let path = Fixtures.path("curl/unbalanced-quote.curl")
        assertError(Fixtures.loadError("curl/unbalanced-quote.curl"), file: path, line: 2, column: 6, mentions: "unbalanced single quote")
    }

    func testTabsInTheOffendingLineKeepTheCaretAligned() {
        let error = RequestListError(file: "f", line: 1, column: 3, message: "m", lineText: "\tab")
        XCTAssertEqual(error.description, "f:1:3: error: m\n ab\n  ^")
    }
}
