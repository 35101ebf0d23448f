import Foundation
import ReqtopNetworking
import ReqtopTasks
import XCTest

final class TaskDiffTests: XCTestCase {
    func testJSONIsComparedByPath() throws {
        let a = try JSONValue(parsing: Data(#"{"user":{"id":1,"tags":["x"]},"gone":true,"same":"s"}"#.utf8))
        let b = try JSONValue(parsing: Data(#"{"user":{"id":2,"tags":["x","y"]},"same":"s","new":{}}"#.utf8))
        XCTAssertEqual(TaskDiff.jsonRows(a, b), [
            "~ $.user.id: 1 → 2",
            "- $.gone: true",
            "+ $.user.tags[1]: \"y\"",
            "+ $.new: {}",
        ])
    }

    func testTextIsComparedLineByLine() {
        XCTAssertEqual(TaskDiff.lineRows("a\nb\nc", "a\nB\nc\nd"), ["  a", "- b", "+ B", "  c", "+ d"])
    }

    func testHeadersAreComparedByNameWithRepeatedFieldsAsAList() {
        let row = { (marker: String, name: String, left: String, right: String) in "\(marker) \(name) \(left) | \(right)" }
        let a = [HTTPHeader(name: "Server", value: "x"), HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2"),
                 HTTPHeader(name: "X-Old", value: "1")]
        let b = [HTTPHeader(name: "server", value: "x"), HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "X-New", value: "2")]
        XCTAssertEqual(TaskDiff.headerRows(a, b, row: row), [
            "= Server x | x", "~ Set-Cookie a=1, b=2 | a=1", "- X-Old 1 | ", "+ X-New  | 2",
        ])
    }
}
