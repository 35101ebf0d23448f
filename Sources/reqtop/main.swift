import Foundation
import ReqtopInspector
import ReqtopNetworking

// Wiring only: pick the subcommand, run it, exit with its code.
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
let code: Int32
switch arguments.first {
case "run": code = runRunCommand(rest)
case "convert": code = runConvertCommand(rest)
case "demo": code = runDemoCommand(rest)
case "serve": code = runServe(rest)
case "--version", "-V":
    print("reqtop \(ReqtopVersion.string)")
    code = 0
case "--help", "-h", "help":
    print(HelpText.main)
    code = 0
case let other? where other.hasPrefix("-") || !looksLikeURL(other):
    printToStandardError("reqtop: unknown command '\(other)'\nRun 'reqtop --help' for usage.")
    code = 2
default:
    code = runSessionCommand(arguments.first)
}
SessionManager.removeTemporaryFiles()
exit(code)
