import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopSession

// Wiring only: pick the subcommand, run it, exit with its code.
let commands: [any Command.Type] = [RunCommand.self, ConvertCommand.self, DemoCommand.self, ServeCommand.self]
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
case let other? where other.hasPrefix("-") || !looksLikeURL(other):
    printToStandardError("reqtop: unknown command '\(other)'\nRun 'reqtop --help' for usage.")
    code = 2
default:
    code = runSessionCommand(arguments.first)
}
SessionManager.removeTemporaryFiles()
exit(code)
