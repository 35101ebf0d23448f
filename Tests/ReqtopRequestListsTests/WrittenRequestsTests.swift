import Foundation
@testable import ReqtopRequestLists
import XCTest

/// A long `.http` list keeps where each request is written and parses it again when read: every
/// request read that way must be the one the whole-file parse gave, for every `.http` fixture
/// (ours and the wild corpus) and for the cases only a block-by-block parse could get wrong.
final class WrittenRequestsTests: XCTestCase {
    /// A long list (kept as text) has every request's name, a repeated one too, in list order.
    func testALongListKeepsEveryRepeatedName() throws {
        let text = (1...5).map { "# @name step\nGET http://x.example/\($0)\n" }.joined(separator: "\n###\n")
        let held = try HTTPFileParser.parse(text: text, path: "many.http", keepingRequests: false)
        XCTAssertEqual(held.specs.names.map { $0.index }, [0, 1, 2, 3, 4])
        XCTAssertEqual(Set(held.specs.names.map { $0.name }), ["step"])
        assertSameList(text, path: "many.http")
    }

    private func assertSameList(_ text: String, path: String, file: StaticString = #filePath, line: UInt = #line) {
        let kept = Result { () throws(RequestListError) in
            try HTTPFileParser.parse(text: text, path: path, keepingRequests: true)
        }
        let written = Result { () throws(RequestListError) in
            try HTTPFileParser.parse(text: text, path: path, keepingRequests: false)
        }
        // And read where it lies, a window at a time: a window of 64 bytes puts every block across windows.
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("written-\(UUID().uuidString)-\((path as NSString).lastPathComponent)")
        _ = FileManager.default.createFile(atPath: fileURL.path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(at: fileURL) }
        for window in [64, 1 << 20] {
            let mapped = Result { () throws(RequestListError) in
                guard let file = ListFile(path: path, reading: fileURL.path, windowSize: window) else {
                    throw RequestListError(file: path, line: 0, column: 0, message: "cannot open", lineText: "")
                }
                return try HTTPFileParser.parse(file: file)
            }
            switch (kept, mapped) {
            case let (.success(kept), .success(read)):
                XCTAssertTrue(read.specs.isReadFromText, file: file, line: line)
                XCTAssertEqual(Array(read.specs), Array(kept.specs),
                               "\(path) read from its file, window \(window): requests", file: file, line: line)
                XCTAssertEqual(read.fileVariables, kept.fileVariables, "\(path): variables", file: file, line: line)
                XCTAssertEqual(read.warnings, kept.warnings, "\(path): warnings", file: file, line: line)
                XCTAssertEqual(read.fileScripts, kept.fileScripts, "\(path): scripts", file: file, line: line)
                XCTAssertEqual(read.hasJavaScript, kept.hasJavaScript, "\(path): has JavaScript", file: file, line: line)
            case let (.failure(kept), .failure(read)):
                XCTAssertEqual(read, kept, "\(path) read from its file, window \(window): the same error", file: file, line: line)
            default:
                XCTFail("\(path): the parse of the text and of its file differ: \(kept) / \(mapped)", file: file, line: line)
            }
        }
        switch (kept, written) {
        case let (.success(kept), .success(written)):
            XCTAssertFalse(kept.specs.isReadFromText, file: file, line: line)
            XCTAssertTrue(written.specs.isReadFromText, file: file, line: line)
            XCTAssertEqual(Array(written.specs), Array(kept.specs), "\(path): requests", file: file, line: line)
            XCTAssertEqual(written.fileVariables, kept.fileVariables, "\(path): variables", file: file, line: line)
            XCTAssertEqual(written.warnings, kept.warnings, "\(path): warnings", file: file, line: line)
            XCTAssertEqual(written.fileScripts, kept.fileScripts, "\(path): scripts", file: file, line: line)
        case let (.failure(kept), .failure(written)):
            XCTAssertEqual(written, kept, "\(path): the same error", file: file, line: line)
        default:
            XCTFail("\(path): one parse failed, the other did not: \(kept) / \(written)", file: file, line: line)
        }
    }

    /// The hints a long file's first parse notes: a `{%` or `.js` anywhere on a line (at its start and
    /// end too), a `{{` expression, and nothing for plain variables and dotted URLs.
    func testScriptHintsSeeMarkersAnywhereOnALine() {
        func hints(_ lines: [String]) -> ScriptHints {
            var hints = ScriptHints()
            for line in lines { Array(line.utf8).withUnsafeBufferPointer { hints.note($0) } }
            return hints
        }
        XCTAssertFalse(hints(["GET http://127.0.0.1:9/files/100b.bin", "Host: a.example", "{{host}}/x", ".j", "{", "x.j"]).scriptMarker)
        XCTAssertFalse(hints(["GET {{host}}/x?y={{token}}"]).expression)
        XCTAssertTrue(hints(["< ./pre.js"]).scriptMarker, ".js at the end")
        XCTAssertTrue(hints([".js"]).scriptMarker, ".js alone")
        XCTAssertTrue(hints(["{%", "client.test()", "%}"]).scriptMarker, "{% at the start")
        XCTAssertTrue(hints(["> {% client.global.set('a', 1) %}"]).scriptMarker, "{% inside")
        XCTAssertTrue(hints(["GET http://x/{{a + b}}"]).expression)
        XCTAssertTrue(hints(["GET http://x/{{", "1 + 2", "}}"]).expression, "an expression across lines")
    }

    func testEveryHTTPFixtureReadsBackTheSameRequests() throws {
        let files = (FileManager.default.enumerator(atPath: Fixtures.directory)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".http") || $0.hasSuffix(".rest") }
        XCTAssertGreaterThan(files.count, 50)
        for relative in files.sorted() {
            let path = Fixtures.path(relative)
            let text = String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: path)), as: UTF8.self)
            assertSameList(text, path: path)
        }
    }

    /// Names, line numbers, CRLF, separators in odd places, variables at a body's end, blocks
    /// without requests, and errors past the first block.
    func testBlocksParsedAgainKeepTheirNamesLinesAndBodies() {
        let text = """
        @host = http://x.example
        ### first
        GET {{host}}/a\r
        X-A: 1\r
        \r
        body line\r
        \r\r
        ###
        # @name second
        POST {{host}}/b
        Content-Type: application/x-www-form-urlencoded

        a=1
        &b=2

        @later = 2
        ### first
        GET {{host}}/taken-name
        ### only a comment block
        # nothing here
          ### an indented separator
        GET {{host}}/c?x={{later}}
        > {% client.global.set("t", 1) %}
        ###
        GET {{host}}/last
        """
        assertSameList(text, path: "/tmp/blocks.http")
        let list = try? HTTPFileParser.parse(text: text, path: "/tmp/blocks.http", keepingRequests: false)
        XCTAssertEqual(list?.specs.map(\.name), ["first", "second", nil, "an indented separator", nil], "the second '### first' is a comment")
        XCTAssertEqual(list?.specs.map { $0.location?.line }, [3, 10, 18, 22, 25])
        XCTAssertEqual(list?.specs[0].body, .text("body line"))
        XCTAssertEqual(list?.specs[1].body, .text("a=1&b=2"))
        assertSameList(text + "\n###\nGET /no-host\nX-Bad header\n", path: "/tmp/error.http")
        assertSameList("", path: "/tmp/empty.http")
        assertSameList("\n\n###\n", path: "/tmp/separators.http")
    }

    /// A long list notes which requests resolve as written and validation skips those; every other
    /// request is still read and checked, and fails as it does in a list held parsed.
    func testValidationStillChecksEveryRequestThatMightNotResolve() throws {
        let simple = "GET http://127.0.0.1:8080/a\n\n###\n"
        let half = HTTPFileParser.writtenRequestsThreshold / simple.utf8.count / 2 + 1
        let text = String(repeating: simple, count: half) + "GET http://127.0.0.1:99999/port\n\n###\nGET /no-host\n\n###\n"
            + String(repeating: simple, count: half)
        var errors: [RequestListError] = []
        for keeping in [true, false] {
            let list = try HTTPFileParser.parse(text: text, path: "/tmp/bad.http", keepingRequests: keeping)
            XCTAssertEqual(list.specs.isReadFromText, !keeping)
            XCTAssertThrowsError(try RequestResolver(list: list).validate()) { errors.append(($0 as? RequestListError)!) }
        }
        XCTAssertEqual(errors.count, 2)
        XCTAssertEqual(errors.first, errors.last)
        XCTAssertEqual(errors.first?.line, 3 * half + 1, "the first request that does not resolve")
        XCTAssertTrue(errors.first?.message.contains("99999") ?? false, errors.first?.message ?? "")
    }

    func testALongListIsReadFromItsText() throws {
        let request = "GET http://127.0.0.1:8080/files/100b.bin\n\n###\n"
        let text = String(repeating: request, count: HTTPFileParser.writtenRequestsThreshold / request.utf8.count + 1)
        let list = try HTTPFileParser.parse(text: text, path: "/tmp/long.http")
        XCTAssertTrue(list.specs.isReadFromText)
        XCTAssertEqual(list.specs.count, HTTPFileParser.writtenRequestsThreshold / request.utf8.count + 1)
        XCTAssertEqual(list.specs.last?.location?.line, 3 * (list.specs.count - 1) + 1)
        let resolver = RequestResolver(list: list)
        try resolver.validate()
        XCTAssertEqual(try resolver.resolve(list.specs.count - 1).url.absoluteString, "http://127.0.0.1:8080/files/100b.bin")
    }

    /// A `.http` file over 1 MB is read where it lies (`ListFile`), never whole: the loader gives a
    /// list read from its file, whose requests are those of the text; when the file changes after it
    /// was read, a request read from it is not sent, and says why — never something else.
    func testALongFileIsReadWhereItLiesAndAChangedFileSendsNothing() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).http")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = "\u{FEFF}@host = http://x.example\n" + (0..<30_000).map { "### r\($0)\nPOST {{host}}/items/\($0)\nX-N: \($0)\n\n{\"n\": \($0)}\n" }.joined()
        try Data(text.utf8).write(to: url)
        XCTAssertGreaterThan(text.utf8.count, HTTPFileParser.writtenRequestsThreshold)
        let list = try RequestListLoader.load(path: url.path)
        XCTAssertTrue(list.specs.isReadFromText)
        let fromText = try HTTPFileParser.parse(text: String(text.dropFirst()), path: url.path, keepingRequests: true)
        XCTAssertEqual(list.specs.count, 30_000)
        for index in [0, 1, 17_000, 29_999] { XCTAssertEqual(list.specs[index], fromText.specs[index], "request #\(index + 1)") }
        XCTAssertEqual(list.lineText(2), "### r0", "message lines come from the file when one is needed")

        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("### late\nGET http://x.example/late\n".utf8))
        try handle.close()
        let changed = list.specs[12_345]
        XCTAssertEqual(changed.refusal?.message, "not sent: \(url.path) changed since it was read (request #12346 is no longer what was checked)")
        XCTAssertEqual(changed.refusal?.line, 2 + 12_345 * 5, "located at its block, the line of its ### r12345")
    }

    /// The count a parsed list's array is sized by: lines that start with `###`, the first and a last
    /// one without a newline included; `##`, an indented `###` and one inside a line are not separators.
    func testSeparatorLinesAreCountedAtLineStartsOnly() {
        func count(_ text: String) -> Int {
            Array(text.utf8).withUnsafeBufferPointer { HTTPFileParseState.separatorCount(in: $0) }
        }
        XCTAssertEqual(count(""), 0)
        XCTAssertEqual(count("###"), 1)
        XCTAssertEqual(count("### a\nGET http://x.test/\n\n### b\nGET http://x.test/b\n###"), 3)
        XCTAssertEqual(count("## a\n  ### b\nGET http://x.test/ ### c\n#\n##"), 0)
    }

    /// A text of separators and nothing else: no request, and no room reserved for one per line.
    func testATextOfSeparatorsOnlyHoldsNoRequest() throws {
        let text = String(repeating: "###\n", count: 50_000)
        XCTAssertLessThan(text.utf8.count, HTTPFileParser.writtenRequestsThreshold, "parsed in full, the path that reserves")
        let list = try HTTPFileParser.parse(text: text, path: "separators.http", keepingRequests: true)
        XCTAssertEqual(list.specs.count, 0)
    }
}
