import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopSession

// Wiring only: pick the subcommand, run it, exit with its code.
let commands: [any Command.Type] = [RunCommand.self, ConvertCommand.self, DemoCommand.self, ServeCommand.self]
var arguments = Array(CommandLine.arguments.dropFirst())
// `reqtop [--no-mouse] [URL]`: the session's one option (subcommands parse their own).
let isSubcommand = arguments.first.map { name in commands.contains { $0.name == name } } ?? false
let sessionMouse = isSubcommand || !arguments.contains("--no-mouse")
if !isSubcommand { arguments.removeAll { $0 == "--no-mouse" } }
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
case let other? where other.hasPrefix("-") || !looksLikeURL(other):
    printToStandardError("reqtop: unknown command '\(other)'\nRun 'reqtop --help' for usage.")
    code = 2
default:
    code = runSessionCommand(arguments.first, mouse: sessionMouse)
}
SessionManager.removeTemporaryFiles()
exit(code)
