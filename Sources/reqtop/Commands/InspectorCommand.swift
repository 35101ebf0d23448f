import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks

/// `reqtop [URL]`: the interactive session, with a first GET of URL — declared and parsed like every
/// subcommand, under no name (`reqtop --help` lists it first). Without a terminal, `reqtop URL`
/// sends the GET headless (like `reqtop run`), and bare `reqtop` explains itself.
enum InspectorCommand: Command {
    static let name = ""
    static let arguments = "[URL] [--no-mouse] [--no-journal] [--include-secrets]"
    static let abstract = "interactive session (with a first GET of URL)"
    static let discussion = "Opens the inspector on a new session; with URL, its first task is a GET of it."
    static let options = TerminalUIOptions.options + SecretOptions.options

    static var usage: String { "reqtop \(arguments)" }

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 1)
        if let word = parsed.positionals.first, !looksLikeURL(word) {
            throw UsageError("unknown command '\(word)'")
        }
        var options = InteractiveOptions(secrets: parsed.secrets)
        options.mouse = TerminalUIOptions.mouse(parsed)
        options.journal = TerminalUIOptions.journal(parsed)
        return runSessionCommand(parsed.positionals.first, options: options)
    }

    static func usageFailure(_ error: UsageError) -> Int32 {
        printToStandardError("reqtop: \(error.message)\nRun 'reqtop --help' for usage.")
        return 2
    }
}

func runSessionCommand(_ argument: String?, options: InteractiveOptions) -> Int32 {
    var url: HTTPURL?
    if let argument {
        guard let parsed = HTTPURL(string: argument), parsed.scheme == "http" || parsed.scheme == "https" else {
            printToStandardError("reqtop: '\(argument)' is not an http:// or https:// URL\nRun 'reqtop --help' for usage.")
            return 2
        }
        url = parsed
    }
    guard isatty(0) == 1, isatty(1) == 1 else {
        guard let url else {
            printToStandardError("reqtop: the interactive session needs a terminal; from a script, use "
                                 + "'reqtop URL' with output redirected or 'reqtop run FILE --headless'")
            return 2
        }
        let spec = RequestSpec(method: "GET", url: url.absoluteString)
        let list = RequestList(specs: [spec], fileVariables: [], sourcePath: "<command line>", format: .curl) // taken literally, no {{templates}}
        var run = RunOptions(secrets: options.secrets)
        run.headless = true
        return replay([RunnerInput(list: list)], options: run)
    }
    let manager = SessionManager(configuration: inspectorConfiguration())
    defer { manager.invalidate() }
    let outcome = runInteractive(manager: manager, title: argument ?? "interactive session", options: options) { session in
        if let url { session.start(HTTPRequest(url: url), name: nil) }
    }
    // As the README says for every session: 1 when a task failed or was cancelled.
    if case .quit = outcome.reason, outcome.store.aggregates().count(.failed) + outcome.store.aggregates().count(.cancelled) > 0 {
        return 1
    }
    return outcome.reason.exitCode
}
