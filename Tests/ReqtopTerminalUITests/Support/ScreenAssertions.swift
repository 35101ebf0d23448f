import Foundation
import ReqtopTerminalUI
import XCTest

/// Asserts that the backend's screen shows exactly `expected`, one string per row.
func assertLines(_ backend: TestBackend, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    if let mismatch = backend.mismatch(expected) { XCTFail(mismatch, file: file, line: line) }
}

/// Asserts that `buffer` shows exactly `expected`, one string per row.
func assertLines(_ buffer: Buffer, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    let backend = TestBackend(width: buffer.width, height: buffer.height)
    backend.draw(BufferDiff.changes(from: Buffer(width: 0, height: 0), to: buffer))
    assertLines(backend, expected, file: file, line: line)
}

/// Renders `draw` into a fresh buffer of `width` × `height` and returns it.
func render(width: Int, height: Int, _ draw: (inout Buffer, Rect) -> Void) -> Buffer {
    var buffer = Buffer(width: width, height: height)
    draw(&buffer, buffer.area)
    return buffer
}
