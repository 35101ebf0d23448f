#if canImport(Glibc)
import Glibc
#endif

/// Runs a program in the foreground on the same terminal and waits for it, the way `system(3)`
/// does: SIGINT and SIGQUIT are ignored here meanwhile, so a Ctrl-C reaches only the program.
enum ExternalProgram {
    static func run(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else { return 127 }
        var oldInt = sigaction()
        var oldQuit = sigaction()
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        // The child gets the default dispositions back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], nil, &attributes, &argv, environ) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        // WIFEXITED / WEXITSTATUS, which Swift cannot import as macros.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
