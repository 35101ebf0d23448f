import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
    // `reqtop` or `reqtop URL`: the interactive session.
    let manager = SessionManager()
    let outcome = runInteractive(manager: manager, title: arguments.first ?? "interactive session") { session in
        if let first = arguments.first, let url = URL(string: first) { session.start(URLRequest(url: url), name: nil) }
    }
    code = outcome.reason.exitCode
}
SessionManager.removeTemporaryFiles()
exit(code)
