import Foundation
import ReqtopSync
import ReqtopTestSupport
import XCTest

/// The `reqtop` executable built by `swift build` (`.build/debug/reqtop` beside the sources).
let reqtopExecutable = TestEnvironment.builtProduct("reqtop")

/// A running `reqtop` whose stdout a test reads line by line while it runs (to signal it at the right moment).
final class LiveCLIProcess: Sendable {
    private let process: Process
    private let stdout = Protected(Data())
    private let stderr = Protected(Data())
    private let readers = DispatchGroup()

    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: reqtopExecutable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        for (pipe, buffer) in [(outPipe, stdout), (errPipe, stderr)] {
            DispatchQueue.global().async(group: readers) {
                let handle = pipe.fileHandleForReading
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    buffer.withLock { $0.append(data) }
                }
            }
        }
    }

    /// The complete lines written to stdout so far.
    var stdoutLines: [String] {
        let text = String(decoding: stdout.snapshot, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    var stderrText: String { String(decoding: stderr.snapshot, as: UTF8.self) }

    /// Polls stdout until a line satisfies `predicate`; nil after `timeout` seconds.
    func waitForLine(timeout: Double = 20, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdoutLines.first(where: predicate) { return line }
            usleep(5000)
        }
        return nil
    }

    func send(signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit and for all output; the exit status, or nil on timeout (the process is then killed).
    func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        _ = readers.wait(timeout: .now() + 5)
        return process.terminationStatus
    }
}
