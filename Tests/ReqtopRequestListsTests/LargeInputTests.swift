import Foundation
import ReqtopRequestLists
import XCTest

/// Inputs that took minutes when their parsing was quadratic (issue #16's reproducers, made here
/// because they are megabytes of one repeated line). Each must parse to the right result; no time
/// is asserted (speed goals live in `make bench`), but a return of the quadratic work would make
/// these tests run for minutes.
final class LargeInputTests: XCTestCase {
    func testAChainOf8000DependentRequestsIsCheckedForCyclesOnce() throws {
        let text = (0..<8000).map { i in
            "### r\(i)\n# @name r\(i)\nGET http://x.test/\(i == 0 ? "0" : "{{r\(i - 1).response.status}}")\n"
        }.joined(separator: "\n")
        let resolver = RequestResolver(list: try HTTPFileParser.parse(text: text, path: "chain.http"))
        XCTAssertNoThrow(try resolver.validate(), "a chain has no cycle (61 s of path copies before)")
        XCTAssertEqual(resolver.dependencies(of: 7999), ["r7998"])
    }

    func testACycleAtTheEndOfALongChainIsFoundAndNamed() throws {
        var text = (0..<3000).map { i in "### r\(i)\n# @name r\(i)\nGET http://x.test/{{r\(i + 1).response.status}}\n" }.joined(separator: "\n")
        text += "\n### r3000\n# @name r3000\nGET http://x.test/{{r2999.response.status}}\n"
        XCTAssertThrowsError(try RequestResolver(list: HTTPFileParser.parse(text: text, path: "loop.http")).validate()) { error in
            XCTAssertTrue((error as? RequestListError)?.message.contains("cycle: r2999 → r3000 → r2999") == true, "\(error)")
        }
    }

    func testEightyThousandBlankLinesBeforeABody() throws {
        let text = "POST http://x.test/\nContent-Type: text/plain\n\n" + String(repeating: "\n", count: 80_000) + "body\n"
        let list = try HTTPFileParser.parse(text: text, path: "blank.http")
        XCTAssertEqual(try RequestResolver(list: list).resolve(0).body, .data(Data("body".utf8)), "leading blank lines are no body")
    }

    func testAClusterOf200000ShortCurlOptions() throws {
        let list = try RequestListLoader.load(text: "curl -" + String(repeating: "s", count: 200_000) + " http://x.test/\n",
                                              path: "flags.curl", format: .curl)
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertEqual(list.specs[0].url, "http://x.test/")
    }
}
