import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

/// Runs executables to completion (a `RunningProcess` waited for).
public enum Subprocess {
    /// Runs `executable` with `arguments` to completion, capturing stdout and stderr.
    /// - Parameters:
    ///   - timeout: seconds after which the process is sent SIGTERM (then SIGKILL after 2 s).
    ///   - environment: extra variables on top of this process's environment.
    ///   - output: `.file` for tools that leave daemons behind (see `RunningProcess.Output`).
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 60, environment: [String: String] = [:],
                           output: RunningProcess.Output = .pipes) throws -> SubprocessResult {
        let process = try RunningProcess(executable, arguments, environment: environment, output: output)
        var timedOut = false
        if process.waitForExit(timeout: timeout) == nil {
            timedOut = true
            process.terminate()
            if process.waitForExit(timeout: 2) == nil {
                process.send(signal: SIGKILL)
                _ = process.waitForExit(timeout: 10)
            }
        }
        return process.result(timedOut: timedOut)
    }
}

/// A subprocess: started, read while it runs (stdout line by line, stderr as it arrives),
/// signalled, waited for. The one process spawner of the tests (`Subprocess.run` runs one to the
/// end): `posix_spawn` and `waitpid`, so the exit status comes straight from the kernel even when
/// the program leaves a daemon behind.
public final class RunningProcess {
    /// Where its output goes.
    public enum Output: Sendable {
        /// Two pipes, read as the output arrives.
        case pipes
        /// One temporary file for both, read when it exits: a daemon it leaves behind (tmux starts
        /// its server from the first client) inherits the file, not a pipe the caller waits on.
        case file
    }

    public let processIdentifier: Int32
    private let output = Protected((stdout: Data(), stderr: Data(), stdoutClosed: false))
    /// The raw `waitpid` status once it has exited.
    private let waitStatus = Protected<Int32?>(nil)
    private let arrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let readers = DispatchGroup()
    private let outputFile: URL?

    public struct SpawnError: Error, CustomStringConvertible {
        public let program: String
        public let code: Int32
        public var description: String { "could not start \(program): \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` with `environment` added to this process's.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], output mode: Output = .pipes) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipes: [(read: Int32, write: Int32)] = []
        switch mode {
        case .file:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out")
            outputFile = url
            posix_spawn_file_actions_addopen(&actions, 1, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipes:
            outputFile = nil
            for target in [Int32(1), 2] {
                var fds: [Int32] = [0, 0]
                guard pipe(&fds) == 0 else { throw SpawnError(program: executable, code: errno) }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } // the child gets them only as 1 and 2
                pipes.append((fds[0], fds[1]))
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            }
        }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        for pipe in pipes { close(pipe.write) }
        guard rc == 0 else {
            for pipe in pipes { close(pipe.read) }
            throw SpawnError(program: executable, code: rc)
        }
        processIdentifier = pid
        let child = pid
        if pipes.count == 2 {
            read(pipes[0].read, into: \.stdout, closing: true)
            read(pipes[1].read, into: \.stderr, closing: false)
        }
        let waitStatus = waitStatus
        let exited = exited
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            waitStatus.withLock { $0 = status }
            exited.signal()
        }
    }

    deinit {
        if let outputFile { try? FileManager.default.removeItem(at: outputFile) }
    }

    /// Appends what arrives on `pipe` to the output, waking `waitForLine` for stdout.
    private func read(_ descriptor: Int32, into field: WritableKeyPath<(stdout: Data, stderr: Data, stdoutClosed: Bool), Data> & Sendable,
                      closing: Bool) {
        let output = output
        let arrived = arrived
        let readers = readers
        readers.enter()
        Thread.detachNewThread {
            defer { readers.leave() }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            while true {
                let data = handle.availableData
                output.withLock {
                    $0[keyPath: field].append(data)
                    if data.isEmpty, closing { $0.stdoutClosed = true }
                }
                if closing { arrived.signal() }
                if data.isEmpty { return }
            }
        }
    }

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
        guard waitStatus.snapshot == nil else { return } // never a pid the kernel has handed to another process
        kill(processIdentifier, signal)
    }

    /// Waits for the process to exit and its output to be read; returns its exit status, or nil on timeout.
    public func waitForExit(timeout: Double) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // let later callers see the exit too
        _ = readers.wait(timeout: .now() + 5) // a daemon that kept the pipes open does not hold the test
        if let outputFile, let data = try? Data(contentsOf: outputFile) { output.withLock { $0.stdout = data } }
        return exitStatus
    }

    /// The exit status, or the signal's number when a signal ended it (nil while it runs).
    private var exitStatus: Int32? {
        guard let status = waitStatus.snapshot else { return nil }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Everything written to stderr so far, read as it arrives (complete once the process has
    /// exited; with `.file` output, stderr is in stdout).
    public var stderrText: String { output.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// What it produced, once it has exited.
    func result(timedOut: Bool) -> SubprocessResult {
        let captured = output.snapshot
        let status = waitStatus.snapshot ?? 0
        return SubprocessResult(status: exitStatus ?? -1, terminatedBySignal: status & 0x7F != 0,
                                stdout: captured.stdout, stderr: captured.stderr, timedOut: timedOut)
    }

    /// Kills the process if it is still running.
    public func terminate() {
        send(signal: SIGTERM)
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
