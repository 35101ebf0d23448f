import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve" {
    exit(runServe(Array(arguments.dropFirst())))
}
let manager = SessionManager()
let outcome = runInteractive(manager: manager, title: arguments.first ?? "interactive session") { session in
    if let first = arguments.first, let url = URL(string: first) { session.start(URLRequest(url: url), name: nil) }
}
exit(outcome.reason.exitCode)
