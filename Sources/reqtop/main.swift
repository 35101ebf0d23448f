import CMemory
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopTasks

// Two malloc arenas, not one per thread that ever allocated: reqtop's threads hand what they allocate to
// each other (engine → completion queue → printer), and each arena kept what it freed — 100,000 requests
// at --concurrency 64 peaked 1–3 MB higher (glibc's default allows 8 per core; the environment's setting wins).
_ = cmemory_limit_arenas(2)
// And freed memory kept for reuse rather than trimmed: glibc handed the top of a heap back as soon as
// 128 KB were free, and a run took it again page by page — a 5,000-request run at --concurrency 8 made
// 3,800 page faults instead of 2,300, and shrinking a heap while another thread faulted made them wait
// on each other (1,200 context switches instead of 300; 9 % of the run's CPU time). Peak memory is what
// it was: only memory already used is kept.
_ = cmemory_keep_freed_memory(16 << 20)

// Wiring only: pick the subcommand, run it, exit with its code.
let commands = allCommands
let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
switch arguments.first {
case let name? where commands.contains { $0.name == name }:
    code = commands.first { $0.name == name }!.main(Array(arguments.dropFirst()))
case "--version", "-V":
    print("reqtop \(ReqtopVersion.string)")
    code = 0
case "--help", "-h", "help":
    print(mainHelp(commands))
    code = 0
case "--manual":
    print(manual(commands), terminator: "")
    code = 0
case "--man":
    print(manPage(commands), terminator: "")
    code = 0
default:
    // `reqtop [URL] [options]`: the interactive session, parsed by the same parser as the subcommands.
    code = InspectorCommand.main(arguments)
}
SessionManager.removeTemporaryFiles()
// Output written through C's stdio (print) is flushed, then the process ends without running exit
// handlers: a `reqtop run` engine may still be closing its connections, and tearing libcurl and
// OpenSSL down under it would only race it (every file the command writes is closed by now).
fflush(nil)
_exit(code)
