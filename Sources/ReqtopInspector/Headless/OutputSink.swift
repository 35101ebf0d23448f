import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopSync

/// Where headless output goes: whole lines (or line batches) written at once.
public protocol OutputSink: Sendable {
    /// Writes `text` as is (callers include the newlines) and flushes it.
    func write(_ text: String)
}

/// Unbuffered output to a file descriptor (1 for stdout, 2 for stderr): every `write` reaches the
/// descriptor before it returns, so a reader of a pipe sees each line as soon as it is printed.
public struct FileDescriptorSink: OutputSink {
    public let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public static let standardOutput = FileDescriptorSink(descriptor: 1)
    public static let standardError = FileDescriptorSink(descriptor: 2)

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
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
}

/// Collects output in memory (tests, the TUI's log).
public final class MemorySink: OutputSink {
    private let buffer = Protected("")

    public init() {}

    public func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    public var text: String { buffer.snapshot }

    /// The complete lines written so far.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}
