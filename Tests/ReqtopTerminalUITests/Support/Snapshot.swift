import Foundation
import XCTest

/// Compares screen lines with a snapshot file stored next to the test, in `__Snapshots__/<name>.txt`.
///
/// Set `REQTOP_RECORD_SNAPSHOTS=1` to (re)write the file instead of comparing.
func assertSnapshot(_ lines: [String], named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let directory = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let url = directory.appendingPathComponent("\(name).txt")
    let text = lines.map { "|\($0)|" }.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["REQTOP_RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do { try text.write(to: url, atomically: true, encoding: .utf8) } catch {
            XCTFail("could not record snapshot \(url.path): \(error)", file: file, line: line)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        XCTFail("missing snapshot \(url.path): run with REQTOP_RECORD_SNAPSHOTS=1 to record it", file: file, line: line)
        return
    }
    guard expected != text else { return }
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = text.split(separator: "\n", omittingEmptySubsequences: false)
    var report = "snapshot \(name) differs (- expected, + actual):\n"
    for i in 0..<max(e.count, a.count) {
        let el = i < e.count ? String(e[i]) : "<none>", al = i < a.count ? String(a[i]) : "<none>"
        report += el == al ? "  \(al)\n" : "- \(el)\n+ \(al)\n"
    }
    XCTFail(report, file: file, line: line)
}
