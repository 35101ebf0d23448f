import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopTestServer
import ReqtopTasks

/// `reqtop demo`: the embedded test server plus the built-in demo list, concurrency 4.
enum DemoCommand: Command {
    static let name = "demo"
    static let arguments = "[--headless] [--keep-bodies DIR] [--no-mouse] [--no-journal]"
    static let briefArguments = "[options]"
    static let abstract = "replay the demo list against the embedded test server"
    static let discussion = """
        Starts the embedded test server on a free loopback port and replays the demo list
        (built in; Resources/demo.http is a readable copy, and REQTOP_RESOURCES=DIR uses
        DIR/demo.http instead) with
        concurrency 4: redirects, a slow download with progress, a large download to
        suspend and resume, a POST, a 404, a timeout, a refused connection, chaining and
        a response full of escape sequences.
        """
    static let options = [HeadlessOptions.headless, RunCommand.keepBodies] + TerminalUIOptions.options + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        var settings = HeadlessSettings(secrets: parsed.secrets)
        settings.keepBodiesPath = parsed.value(RunCommand.keepBodies)
        settings.mouse = TerminalUIOptions.mouse(parsed)
        settings.journal = TerminalUIOptions.journal(parsed)
        return demo(headless: parsed.has(HeadlessOptions.headless), settings: settings)
    }
}

private func demo(headless: Bool, settings: HeadlessSettings) -> Int32 {
    let server: TestServer
    do {
        server = try TestServer()
    } catch {
        printToStandardError("reqtop demo: cannot start the test server: \(error)")
        return 1
    }
    server.start()
    defer { server.stop() }
    let base = server.baseURL.absoluteString
    let demo: (input: RunnerInput, path: String)
    do {
        demo = try DemoSource.load(base: base, secrets: settings.secrets)
    } catch {
        printToStandardError(error.description)
        return 2
    }
    printToStandardError("reqtop demo: test server on \(base), replaying \(demo.path)")
    var options = RunOptions(secrets: settings.secrets)
    options.files = ["demo.http"]
    options.concurrency = 4
    options.headless = headless
    options.settings = settings
    // The demo fails some requests on purpose (a timeout, a refused connection): that is not an error.
    let code = replay([demo.input], options: options)
    return code == 1 ? 0 : code
}
