import Foundation
@testable import ReqtopHTTPModel
import XCTest

/// The text, path, date and file helpers that stand in for Foundation in the executable (built on
/// FoundationEssentials), each compared with what Foundation itself answers for the same input.
final class WithoutFoundationTests: XCTestCase {
    private let texts = ["", " ", "\t a b \t", "\u{00A0}x\u{3000}", "\r\n x \n", "\u{2028}y\u{2029}", "\u{85}z\u{85}",
                         "plain", " é ", "\u{200B}zero-width\u{200B}", "a\r\nb", "\u{1680}\u{2000}\u{202F}\u{205F}"]

    func testTrimmingMatchesFoundationsCharacterSets() {
        for text in texts {
            XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            XCTAssertEqual(text.trimmingWhitespaceAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
            XCTAssertEqual(text.trimmingASCII(" \t\""), text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")), text.debugDescription)
        }
        // Visible characters in the set: text that starts and ends with them is trimmed too.
        for text in ["\"abc\"", "\"a\"b\"", "\"\"", "a\""] {
            XCTAssertEqual(text.trimmingASCII("\""), text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), text)
        }
        let blanksAndReturns = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\r"))
        for text in ["X=1\r \r", " \r\tY=2\r", "Z=3"] {
            XCTAssertEqual(text.trimmingWhitespace(also: "\r"), text.trimmingCharacters(in: blanksAndReturns), text.debugDescription)
        }
    }

    func testPercentDecodingMatchesFoundation() {
        for text in ["a%20b", "%zz", "%", "%4", "%E2%82%AC", "%FF", "abc", "%41%4a", "100%", "%%", "a+b", "%C3"] {
            XCTAssertEqual(text.percentDecoded(), text.removingPercentEncoding, text)
        }
    }

    func testPercentEncodingMatchesFoundation() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for text in ["a b", "é/€?&=#", "~-._", "", "{{x}}", "\u{0}\n"] {
            XCTAssertEqual(text.percentEncoded(), text.addingPercentEncoding(withAllowedCharacters: unreserved), text)
        }
    }

    func testReplacingAndSearchingCompareBytesAsFoundationDoes() {
        let cases: [(String, String, String)] = [("a\r\nb\r\n", "\n", "N"), ("aaaa", "aa", "b"), ("", "a", "b"), ("héllo", "é", "e"),
                                                  ("x", "", "y"), ("{{a}} {{b}}", "}}", "]")]
        for (text, target, replacement) in cases where !target.isEmpty {
            XCTAssertEqual(text.replacingEvery(target, with: replacement), text.replacingOccurrences(of: target, with: replacement), text)
            func offsets(_ range: Range<String.Index>?) -> [Int]? {
                range.map { [text.utf8.distance(from: text.startIndex, to: $0.lowerBound), text.utf8.distance(from: text.startIndex, to: $0.upperBound)] }
            }
            XCTAssertEqual(offsets(text.byteRange(of: target)), offsets(text.range(of: target)), text)
            XCTAssertEqual(offsets(text.lastByteRange(of: target)), offsets(text.range(of: target, options: .backwards)), text)
        }
        XCTAssertEqual("x".replacingEvery("", with: "y"), "x")
        // Bytes, where Foundation keeps a base letter and its combining accent together: the literal `e` is found.
        XCTAssertEqual("e\u{301}x".replacingEvery("e", with: "E"), "E\u{301}x")
        let text = "ab ab ab"
        let after = text.index(text.startIndex, offsetBy: 1)
        XCTAssertEqual(text.byteRange(of: "ab", in: after..<text.endIndex), text.range(of: "ab", range: after..<text.endIndex))
        XCTAssertEqual(ByteSearch.firstOffset(of: Data([2, 3]), in: Data([1, 2, 3, 2, 3])), 1)
        XCTAssertEqual(ByteSearch.firstOffset(of: Data([2, 3]), in: Data([1, 2, 3, 2, 3]), from: 2), 3)
        XCTAssertNil(ByteSearch.firstOffset(of: Data([4]), in: Data([1, 2, 3])))
    }

    func testPathsMatchNSString() {
        let paths = ["", "/", "a", "/a", "a/", "/a/b", "/a/b/", "a//b", "a/b.txt", "/x/list.http", "file.tar.gz", "a/b/",
                     "/a/b.d/c", "name.", "~/x.har"]
        for path in paths {
            let ns = path as NSString
            XCTAssertEqual(path.lastPathComponent, ns.lastPathComponent, "lastPathComponent of \(path.debugDescription)")
            if path != "a", path != "a/" { // Foundation on Linux crashes on these
                XCTAssertEqual(path.deletingLastPathComponent, ns.deletingLastPathComponent, "deletingLastPathComponent of \(path.debugDescription)")
            }
            XCTAssertEqual(path.pathExtension, ns.pathExtension, "pathExtension of \(path.debugDescription)")
            if path != "a//b" { // Foundation also folds the slashes here
                XCTAssertEqual(path.deletingPathExtension, ns.deletingPathExtension, "deletingPathExtension of \(path.debugDescription)")
            }
            for component in ["b", "c.http"] {
                XCTAssertEqual(path.appendingPathComponent(component), ns.appendingPathComponent(component), "\(path.debugDescription) + \(component)")
            }
        }
        for path in ["/a/./b/../c", "/a/b/", "/../x", "//a//b", "/a/b/.."] {
            XCTAssertEqual(path.standardizingPath(home: "/home/u"), (path as NSString).standardizingPath, path)
        }
        XCTAssertEqual("~/lists/a.http".standardizingPath(home: "/home/u"), "/home/u/lists/a.http")
        // A symbolic link is followed before `..` is applied, as the kernel (and Foundation) does.
        let folder = NSTemporaryDirectory() + "reqtop-paths-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/real/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(symlink(folder + "/real/sub", folder + "/link"), 0)
        for path in [folder + "/link/../x.json", folder + "/link/y/../z", folder + "/link", folder + "/missing/../w"] {
            XCTAssertEqual(path.standardizingPath(home: nil), (path as NSString).standardizingPath, path)
        }
        // Where Foundation on Linux is wrong: its deletingLastPathComponent crashes on `//`, `a` and `a/`;
        // `/` + `/d` gives `//d`.
        XCTAssertEqual("a".deletingLastPathComponent, "")
        XCTAssertEqual("a/".deletingLastPathComponent, "")
        XCTAssertEqual("//".lastPathComponent, "/")
        XCTAssertEqual("//".deletingLastPathComponent, "/")
        XCTAssertEqual("/".appendingPathComponent("/d"), "/d")
        XCTAssertEqual("a".appendingPathComponent("/d"), "a/d")
    }

    func testPrintfFormatsAsStringFormat() {
        XCTAssertEqual(String(printf: "%.1f req/s", 12.345), String(format: "%.1f req/s", 12.345))
        XCTAssertEqual(String(printf: "%02x", UInt8(7)), String(format: "%02x", UInt8(7)))
        XCTAssertEqual(String(printf: "%06x", 0xABC), String(format: "%06x", 0xABC))
        XCTAssertEqual(String(printf: "+%.3f s  #%ld", 1.5, 42), "+1.500 s  #42")
        XCTAssertEqual(String(printf: "%3.0f%%", 99.6), String(format: "%3.0f%%", 99.6))
        let long = String(repeating: "x", count: 200)
        XCTAssertEqual(String(printf: "%.2f " + long, 1.0), "1.00 " + long, "longer than the first buffer")
    }

    func testDatePatternsMatchDateFormatterInUTC() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        let patterns = ["yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEE MMM dd yyyy HH:mm:ss 'GMT+0000'",
                        "yyyyMMdd-HHmmss", "dd-MM-yyyy hh:mm a", "MMMM d, yy", "EEEE D", "'it''s' h 'o''clock'", "Z ZZZZZ XXX",
                        "EEEEE MMMMM EEEEEE", "YYYY-MM-dd z"]
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_796_403_160.076_189),
                     Date(timeIntervalSince1970: 951_782_400.5), Date(timeIntervalSince1970: 1_700_000_000.999)]
        for pattern in patterns {
            formatter.dateFormat = pattern
            for date in dates {
                XCTAssertEqual(DatePattern(pattern).string(from: date), formatter.string(from: date), "\(pattern) at \(date.timeIntervalSince1970)")
            }
        }
    }

    /// A run of S longer than the clock's nanoseconds pads with zeros (it trapped on overflowing Int:
    /// a fuzz find, `Tests/Fuzz/corpus/http/datetime-long-fraction.http`).
    func testFractionPatternsLongerThanNanosecondsPadWithZeros() {
        let date = Date(timeIntervalSince1970: 1_796_403_160.5)
        XCTAssertEqual(DatePattern("ss.SSSSSSSSSSSS").string(from: date), "40.500000000000")
        let long = DatePattern("S" + String(repeating: "S", count: 199)).string(from: date)
        XCTAssertEqual(long, "5" + String(repeating: "0", count: 199))
    }

    func testJSONSecretMembersAreWhatTheirExpressionMatches() throws {
        let pattern = #""([A-Za-z0-9_\-]{1,64})"\s*:\s*"((?:[^"\\]|\\.){1,4096})""#
        let regex = try NSRegularExpression(pattern: pattern)
        let bodies = [#"{"password": "hunter2", "user": "x"}"#, #"{"token":"a\"b\\"}"#, #"{"apiKey" :  "k1","nested":{"secret":"s"}}"#,
                      #"{"password": ""}"#, #"["password", "x"]"#, #"{"password": "line\#nbreak"}"#, #"{"pass-word":"v","x":"password"}"#,
                      "{\"token\":\"" + String(repeating: "y", count: 5000) + "\"}", #"{"é":"v","secret":"é€"}"#, #""token":"#]
        for body in bodies {
            let expected = regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match -> String? in
                guard let name = Range(match.range(at: 1), in: body), let value = Range(match.range(at: 2), in: body),
                      Redaction.isSecretParameter(String(body[name])) else { return nil }
                return String(body[value])
            }
            XCTAssertEqual(Redaction.jsonSecretMembers(body).map(\.value), expected, body.prefix(80).description)
        }
    }

    func testErrorsDescribeThemselves() {
        struct Described: LocalizedError { var errorDescription: String? { "the entries were cut short" } }
        XCTAssertEqual(Described().readableDescription, "the entries were cut short")
        XCTAssertEqual(JSONSyntaxError(message: "expected ':'", line: 3, column: 14).readableDescription, "line 3, column 14: expected ':'")
        XCTAssertEqual(POSIXError(.EACCES).readableDescription, "Permission denied")
    }

    func testFittedPadsOrCutsAsPadding() {
        for (text, width) in [("abc", 5), ("abcdef", 4), ("", 2), ("ab", 2)] {
            XCTAssertEqual(text.fitted(to: width), text.padding(toLength: width, withPad: " ", startingAt: 0))
        }
    }

    func testFileStatusAndOpenFileReadWhatWasWritten() throws {
        let path = NSTemporaryDirectory() + "reqtop-openfile-\(getpid())"
        defer { unlink(path) }
        XCTAssertNil(FileStatus(path: path))
        XCTAssertThrowsError(try OpenFile(forReadingAtPath: path)) { error in
            XCTAssertEqual(error.readableDescription, "\(path): No such file or directory")
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try OpenFile(forUpdatingAtPath: path)
        try writer.write(Data("hello, file".utf8))
        try writer.seek(toOffset: 7)
        XCTAssertEqual(try writer.read(upToCount: 100), Data("file".utf8))
        try writer.close()
        try writer.close()
        let status = try XCTUnwrap(FileStatus(path: path))
        XCTAssertEqual(status.size, 11)
        XCTAssertTrue(status.isRegularFile)
        XCTAssertFalse(status.isDirectory)
        XCTAssertTrue(FileStatus(path: NSTemporaryDirectory())?.isDirectory == true)
        XCTAssertEqual(try OpenFile(forReadingAtPath: path).read(upToCount: 5), Data("hello".utf8))
    }
}
