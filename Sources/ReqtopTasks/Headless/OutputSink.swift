#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// Where headless output goes: whole lines (or line batches) written at once.
package protocol OutputSink: Sendable {
    /// Writes `text` as is (callers include the newlines) and flushes it.
    func write(_ text: String)
    /// Writes UTF-8 `bytes` as `write(_:)` writes their text.
    func write(utf8 bytes: UnsafeRawBufferPointer)
}

extension OutputSink {
    package func write(utf8 bytes: UnsafeRawBufferPointer) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Unbuffered output to a file descriptor (1 for stdout, 2 for stderr): every `write` reaches the
/// descriptor before it returns, so a reader of a pipe sees each line as soon as it is printed.
package struct FileDescriptorSink: OutputSink {
    package let descriptor: Int32

    package init(descriptor: Int32) { self.descriptor = descriptor }

    package static let standardOutput = FileDescriptorSink(descriptor: 1)
    package static let standardError = FileDescriptorSink(descriptor: 2)

    /// True when the descriptor is a terminal.
    package var isTerminal: Bool { isatty(descriptor) == 1 }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(utf8: UnsafeRawBufferPointer($0)) }
    }

    package func write(utf8 buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nothing more can be written
            }
            offset += written
        }
    }
}

/// Collects output in memory (tests, the TUI's log).
package final class MemorySink: OutputSink {
    private let buffer = Protected("")

    package init() {}

    package func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    package var text: String { buffer.snapshot }

    /// The complete lines written so far.
    package var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}
