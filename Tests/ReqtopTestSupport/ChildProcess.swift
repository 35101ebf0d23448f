import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with `posix_spawn` and `waitpid`, collecting stdout and stderr.
///
/// Used instead of Foundation's `Process` for tools that leave daemons behind (tmux starts its
/// server from the first client): output goes to a temporary file, so a daemon that inherits the
/// descriptor cannot keep the caller waiting, and the exit status comes straight from `waitpid`.
public enum ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
    }

    public enum Failure: Error, CustomStringConvertible {
        case spawn(program: String, errno: Int32)
        public var description: String {
            switch self {
            case .spawn(let program, let code): return "could not start \(program): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Runs `argv` (argv[0] is the program path) with the current environment and waits for it.
    public static func run(_ argv: [String]) throws -> Result {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup($0) } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, &cEnv)
        guard rc == 0 else { throw Failure.spawn(program: argv[0], errno: rc) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Result(status: code, output: output)
    }
}
