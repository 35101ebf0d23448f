import Foundation
import ReqtopSync

/// What a finished subprocess produced.
public struct SubprocessResult: Sendable {
    /// The exit status, or the terminating signal number when ``terminatedBySignal``.
    public let status: Int32
    public let terminatedBySignal: Bool
    public let stdout: Data
    public let stderr: Data
    /// True when the run hit its timeout and was terminated.
    public let timedOut: Bool

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs executables and captures their output.
public enum Subprocess {
    /// Runs `executable` with `arguments` to completion, capturing stdout and stderr.
    /// - Parameters:
    ///   - timeout: seconds after which the process is sent SIGTERM (then SIGKILL after 2 s).
    ///   - environment: extra variables on top of this process's environment.
    public static func run(
        _ executable: String, _ arguments: [String], timeout: Double = 60, environment: [String: String] = [:]
    ) throws -> SubprocessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        let output = Protected((stdout: Data(), stderr: Data()))
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) {
            let data = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0.stdout = data }
        }
        DispatchQueue.global().async(group: readers) {
            let data = stderrPipe.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0.stderr = data }
        }

        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        }
        readers.wait()
        process.waitUntilExit()
        let captured = output.snapshot
        return SubprocessResult(
            status: process.terminationStatus,
            terminatedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: captured.stdout, stderr: captured.stderr, timedOut: timedOut
        )
    }
}

/// A subprocess that keeps running while the test talks to it: read its stdout line by line,
/// signal it, wait for its exit. (`Subprocess.run` runs one to the end; `ChildProcess` is for
/// tools that leave daemons behind.)
public final class RunningProcess {
    private let process: Process
    private let output = Protected((stdout: Data(), stderr: Data(), stdoutClosed: false))
    private let arrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let readers = DispatchGroup()

    /// Starts `executable`; stdout and stderr are captured in the background.
    public init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        let output = output
        let arrived = arrived
        let readers = readers
        readers.enter()
        readers.enter()
        Thread.detachNewThread {
            defer { readers.leave() }
            let handle = stdoutPipe.fileHandleForReading
            while true {
                let data = handle.availableData
                output.withLock {
                    $0.stdout.append(data)
                    if data.isEmpty { $0.stdoutClosed = true }
                }
                arrived.signal()
                if data.isEmpty { return }
            }
        }
        Thread.detachNewThread {
            defer { readers.leave() }
            let handle = stderrPipe.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                output.withLock { $0.stderr.append(data) }
            }
        }
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// The first line of stdout (without the newline), waiting up to `timeout` seconds for it.
    public func firstLine(timeout: Double) -> String? {
        waitForLine(timeout: timeout) { _ in true }
    }

    /// The complete lines written to stdout so far.
    public var stdoutLines: [String] {
        let text = output.withLock { String(decoding: $0.stdout, as: UTF8.self) }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The first complete stdout line that satisfies `predicate`, waiting (woken by each read, not
    /// polling) up to `timeout` seconds; nil on timeout or when stdout closed without one.
    public func waitForLine(timeout: Double = 20, where predicate: (String) -> Bool) -> String? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let closed = output.withLock { $0.stdoutClosed }
            if let line = stdoutLines.first(where: predicate) { return line }
            if closed { return nil }
            if arrived.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Sends `signal` to the process.
    public func send(signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and its output to be read; returns its exit status, or nil on timeout.
    public func waitForExit(timeout: Double) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // let later callers see the exit too
        process.waitUntilExit()
        _ = readers.wait(timeout: .now() + 5) // a daemon that kept the pipes open does not hold the test
        return process.terminationStatus
    }

    /// Everything written to stderr so far, read as it arrives (complete once the process has exited).
    public var stderrText: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Kills the process if it is still running.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}

/// The absolute path of `name` on `PATH` (or in /usr/bin, /bin), or nil.
public func findExecutable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"]
    for directory in directories {
        let candidate = (directory as NSString).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
