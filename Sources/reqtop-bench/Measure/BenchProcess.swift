import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one finished child process cost.
struct ProcessOutcome {
    /// Exit status, or 128 + signal number when killed.
    var status: Int32
    /// Wall seconds from spawn to exit.
    var wall: Double
    /// User + system CPU seconds of the child (from `wait4`).
    var cpu: Double
    /// What the child wrote to stdout, when captured.
    var output: String
    /// The child's peak resident set in bytes, from `/usr/bin/time` (`runMeasuringMemory`); 0 otherwise.
    /// (`wait4`'s `ru_maxrss` cannot be used: a child made by `posix_spawn` starts in this process's
    /// address space, whose size it then reports.)
    var peakRSS: Double = 0
}

/// Runs programs with `posix_spawn` and `wait4`, so each child's own CPU time is exact.
enum BenchProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `arguments` (the first is the program, found on `PATH`) with stdin from /dev/null.
    /// - Parameters:
    ///   - captureOutput: keep stdout (through a temp file); otherwise it goes to /dev/null.
    ///   - timeout: kill the child after this many seconds (status 128 + 9).
    static func run(_ arguments: [String], captureOutput: Bool = false, timeout: Double = 600) throws -> ProcessOutcome {
        let outputPath = captureOutput ? NSTemporaryDirectory() + "reqtop-bench-out-\(getpid())-\(UUID().uuidString)" : "/dev/null"
        defer { if captureOutput { unlink(outputPath) } }
        let start = Clock.now()
        let pid = try spawn(arguments, stdout: outputPath)
        let finished = Watchdog(pid: pid, after: timeout)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Clock.now() - start
        finished.disarm()

        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let output = captureOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
        return ProcessOutcome(status: code, wall: wall, cpu: Clock.seconds(usage.ru_utime) + Clock.seconds(usage.ru_stime),
                              output: output)
    }
}

extension BenchProcess {
    /// `run` under `/usr/bin/time`, which reports the child's peak RSS (its CPU time includes the child's).
    static func runMeasuringMemory(_ arguments: [String], timeout: Double = 600) throws -> ProcessOutcome {
        let rssFile = NSTemporaryDirectory() + "reqtop-bench-rss-\(getpid())-\(UUID().uuidString)"
        defer { unlink(rssFile) }
        var outcome = try run(["/usr/bin/time", "-f", "%M", "-o", rssFile] + arguments, timeout: timeout)
        let text = (try? String(contentsOfFile: rssFile, encoding: .utf8)) ?? ""
        // A failing child makes time(1) write "Command exited with non-zero status N" first.
        outcome.peakRSS = (text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.last ?? 0) * 1024
        return outcome
    }

    /// Starts `arguments` (the first is the program, found on `PATH`) with stdin and stderr on
    /// /dev/null and stdout to `stdout`; returns its pid.
    static func spawn(_ arguments: [String], stdout: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned))) — is it installed and on PATH?")
        }
        return pid
    }
}

/// Kills a child that runs past its deadline.
private final class Watchdog: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t, after seconds: Double) {
        DispatchQueue.global().async { [done] in
            if done.wait(timeout: .now() + seconds) == .timedOut { kill(pid, SIGKILL) }
        }
    }

    func disarm() { done.signal() }
}
