import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks
import ReqtopTerminalText

/// `reqtop run FILE... [options]`.
enum RunCommand: Command {
    static let name = "run"
    static let arguments = "FILE... [options]"
    static let abstract = "replay .http, HAR or curl request lists"
    static let discussion = """
        Replays request lists (.http/.rest, .har, curl command files, Postman collections,
        Insomnia exports, .hurl files, Bruno collections given as their folder; chosen by
        extension, else by content), in the terminal UI or, with --headless or when stdout is
        not a terminal, as one line per event.
        """
    static let footer: String? = """
        Exit codes: 0 every request completed (any HTTP status) and every test passed, 1 a request
        failed or was cancelled or a script failed (or HTTP >= 400 with --fail-on-status), 2 usage
        or parse error, 4 every request completed but a test failed (a script's, or a Hurl or
        Bruno check), 130 interrupted;
        --dry-run: 0 every request would be sent, 3 some would not (each printed as
        "### N — not sent: why"), 2 the list does not parse.
        """

    static let concurrency = CommandOption.value("concurrency", "N", help: "at most N requests in flight (default 1)")
    static let repeatCount = CommandOption.value("repeat", "N", help: "replay the whole list N times (default 1)")
    static let har = CommandOption.value("har", "PATH", help: "write the session as HAR 1.2 at the end (also on Ctrl-C)")
    static let keepBodies = CommandOption.value("keep-bodies", "DIR", help: "terminal UI: keep every response body in DIR after exit (index.tsv lists them)")
    static let timeout = CommandOption.value("timeout", "SECONDS", help: "default timeout per request (# @timeout overrides it)")
    static let connectTimeout = CommandOption.value("connect-timeout", "SECONDS", help: "give up connecting after SECONDS (default 10)")
    static let idleTimeout = CommandOption.value("idle-timeout", "SECONDS", help: "fail a transfer when no byte moves either way for SECONDS (default 30; 0: never)")
    static let compressed = CommandOption.flag("compressed", help: "ask for compressed responses (else only # @compressed ones); decoding past 200× (and 64 MB): bodyTooLarge")
    static let http11 = CommandOption.flag("http1.1", help: "speak HTTP/1.1 only (# @http2 and curl's --http2 in a list override it)")
    static let http2 = CommandOption.flag("http2", help: "ask for HTTP/2 over cleartext too (h2c upgrade); over TLS it is the default by ALPN")
    static let http2PriorKnowledge = CommandOption.flag("http2-prior-knowledge", help: "speak HTTP/2 from the first byte, also over cleartext")
    static let failOnStatus = CommandOption.flag("fail-on-status", help: "exit 1 when a response has HTTP status >= 400")
    static let dryRun = CommandOption.flag("dry-run", help: "print each request as it will be sent, without sending it")

    static let options = VariableOptions.options + [concurrency, repeatCount] + HeadlessOptions.options + [har, keepBodies]
        + TerminalUIOptions.options + TLSOptions.options + [timeout, connectTimeout, idleTimeout, compressed,
                                                                http11, http2, http2PriorKnowledge, failOnStatus, dryRun]
        + ScriptOptions.options + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        let options = try RunOptions(parsed)
        let inputs: [RunnerInput]
        do {
            inputs = try loadInputs(files: options.files, environment: options.environment, environmentFile: options.environmentFile,
                                    variables: options.variables, secrets: options.settings.secrets)
        } catch {
            printToStandardError(error.description)
            return 2
        }
        if !options.runsScripts { // said once per script, as every warning is
            for script in inputs.flatMap(\.list.allScripts) where script.isJavaScript {
                printToStandardError(RequestListWarning(location: script.location, message: "script skipped (--no-scripts)").description)
            }
        }
        if options.dryRun { return printDryRun(inputs, options: options) }
        return replay(inputs, options: options)
    }
}

/// The options of `reqtop run`, checked.
struct RunOptions {
    var files: [String] = []
    var environment: String?
    var environmentFile: String?
    var variables: [String: String] = [:]
    var concurrency = 1
    var repeatCount = 1
    var headless = false
    var settings: HeadlessSettings
    var insecure = false
    var caFile: String?
    var timeout: Double?
    var connectTimeout: Double?
    /// nil: the session's default; 0: none.
    var idleTimeout: Double?
    var dryRun = false
    var compressed = false
    var httpVersion: HTTPRequest.HTTPVersion?
    var runsScripts = true
    var scriptTimeLimit: Double?

    init(secrets: SecretPolicy) { settings = HeadlessSettings(secrets: secrets) }

    init(_ parsed: ParsedCommandLine) throws(UsageError) {
        settings = HeadlessSettings(secrets: parsed.secrets)
        files = parsed.positionals
        guard !files.isEmpty else { throw UsageError("no request list given: reqtop run FILE...") }
        environment = parsed.value(VariableOptions.environment)
        environmentFile = parsed.value(VariableOptions.environmentFile)
        variables = try VariableOptions.variables(parsed)
        concurrency = try parsed.integer(RunCommand.concurrency, minimum: 1, default: 1)
        repeatCount = try parsed.integer(RunCommand.repeatCount, minimum: 1, default: 1)
        headless = parsed.has(HeadlessOptions.headless)
        if let format = parsed.eventFormat { settings.format = format }
        settings.harPath = parsed.value(RunCommand.har)
        settings.failOnStatus = parsed.has(RunCommand.failOnStatus)
        settings.keepBodiesPath = parsed.value(RunCommand.keepBodies)
        settings.mouse = TerminalUIOptions.mouse(parsed)
        settings.journal = TerminalUIOptions.journal(parsed)
        insecure = parsed.has(TLSOptions.insecure)
        if let file = parsed.value(TLSOptions.caFile) {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw UsageError("--cacert: cannot read '\(file)'")
            }
            caFile = file
        }
        if let text = parsed.value(RunCommand.timeout) {
            guard let seconds = Double(text), seconds > 0 else {
                throw UsageError("--timeout needs a number of seconds > 0, got '\(text)'")
            }
            timeout = seconds
        }
        if let text = parsed.value(RunCommand.connectTimeout) {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("--connect-timeout needs a number of seconds > 0, got '\(text)'")
            }
            connectTimeout = seconds
        }
        if let text = parsed.value(RunCommand.idleTimeout) {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw UsageError("--idle-timeout needs a number of seconds (0: never), got '\(text)'")
            }
            idleTimeout = seconds
        }
        dryRun = parsed.has(RunCommand.dryRun)
        compressed = parsed.has(RunCommand.compressed)
        let versions: [(CommandOption, HTTPRequest.HTTPVersion)] = [(RunCommand.http11, .http1_1), (RunCommand.http2, .http2),
                                                                    (RunCommand.http2PriorKnowledge, .http2PriorKnowledge)]
        let asked = versions.filter { parsed.has($0.0) }
        guard asked.count <= 1 else { throw UsageError("--http1.1, --http2 and --http2-prior-knowledge exclude each other: give one") }
        httpVersion = asked.first?.1
        runsScripts = !parsed.has(ScriptOptions.noScripts)
        scriptTimeLimit = try ScriptOptions.timeLimit(parsed)
        settings.reports = try ScriptOptions.reports(parsed)
        settings.listNames = files.map { $0.lastPathComponent }
    }
}

/// `--var NAME=VALUE` arguments as a dictionary.
func commandLineVariables(_ arguments: [String]) throws(UsageError) -> [String: String] {
    var variables: [String: String] = [:]
    for argument in arguments {
        guard let (name, value) = VariableContext.parseCommandLineVariable(argument) else {
            throw UsageError("--var needs NAME=VALUE, got '\(argument)'")
        }
        variables[name] = value
    }
    return variables
}

/// Loads each list and its variables; warnings go to stderr.
/// The private env values each list uses are registered with `secrets`.
func loadInputs(files: [String], environment: String?, environmentFile: String? = nil, variables: [String: String],
                secrets: SecretPolicy) throws(RequestListError) -> [RunnerInput] {
    let fromFile = try environmentFile.map { path throws(RequestListError) in try PostmanEnvironment.load(path: path) }
    if let fromFile { secrets.register(fromFile.secretValues) }
    var inputs: [RunnerInput] = []
    for file in files {
        let list = try RequestListLoader.load(path: file)
        for warning in list.warnings { printToStandardError(warning.description) }
        var context = try VariableContext.load(besides: file, environmentName: environment, commandLine: variables)
        if let fromFile { // --env-file's values over --env's
            context.environment.merge(fromFile.values) { $1 }
            if context.environmentName == nil { context.environmentName = fromFile.name ?? environmentFile }
        }
        secrets.register(context.secretValues)
        inputs.append(RunnerInput(list: list, variables: context))
    }
    return inputs
}

/// `--dry-run`: validates and prints the resolved requests; sends nothing.
private func printDryRun(_ inputs: [RunnerInput], options: RunOptions) -> Int32 {
    let configuration = sessionConfiguration(options)
    var text = ""
    var notSent = 0
    for input in inputs {
        let resolver = RequestResolver(list: input.list, variables: input.variables)
        do {
            try resolver.validate()
        } catch {
            printToStandardError(error.description)
            return 2
        }
        if inputs.count > 1 { text += "# \(input.list.sourcePath)\n" }
        let dry = DryRun.text(for: resolver, configuration: configuration)
        text += dry.text
        notSent += dry.notSent
    }
    // On a terminal, control characters from the list (an escape sequence in a header or a body)
    // show as pictures (␛) instead of acting; piped, the text goes out as it is.
    if FileDescriptorSink.standardOutput.isTerminal { text = Sanitizer.lines(text).joined(separator: "\n") }
    FileDescriptorSink.standardOutput.write(text)
    if notSent > 0 {
        printToStandardError("reqtop run --dry-run: \(notSent) request\(notSent == 1 ? "" : "s") would not be sent (exit status 3)")
        return 3
    }
    return 0
}

/// The session a run sends with. Like curl, it asks for compressed responses only when told to
/// (`--compressed`, or per request: `# @compressed`, curl's `--compressed`).
func sessionConfiguration(_ options: RunOptions) -> SessionConfiguration {
    var configuration = SessionConfiguration()
    configuration.insecure = options.insecure
    configuration.caFile = options.caFile
    configuration.requestTimeout = options.timeout
    if let connect = options.connectTimeout { configuration.connectTimeout = connect }
    if let idle = options.idleTimeout { configuration.idleTimeout = idle > 0 ? idle : nil }
    configuration.compression = options.compressed
    if let version = options.httpVersion { configuration.httpVersion = SessionConfiguration.HTTPVersion(version) }
    configuration.maxConcurrentTasks = max(configuration.maxConcurrentTasks, options.concurrency)
    configuration.maxConcurrentTasksPerHost = max(configuration.maxConcurrentTasksPerHost, options.concurrency)
    return configuration
}

/// The most requests one `reqtop run` plans (lists × `--repeat`): each is planned before the first is sent.
let maxPlannedRequests = 10_000_000

/// Sends the lists (headless or in the UI) and returns the exit code.
func replay(_ inputs: [RunnerInput], options: RunOptions) -> Int32 {
    let interactive = !options.headless && isatty(0) == 1 && isatty(1) == 1
    var configuration = sessionConfiguration(options)
    if interactive { configuration.liveBodyPreviewBytes = InspectorApp.liveBodyPreviewBytes }
    // Headless, the list is all that runs: the engine holds the next requests and starts each as soon
    // as a slot frees (in the UI, replays and new requests share the engine, so it keeps room).
    let scripted = inputs.contains { $0.list.hasJavaScript || $0.list.hasChecks }
    let ahead = interactive ? (lookahead: 0, callerSubmitsAhead: false) : RunnerOptions.headless(concurrency: options.concurrency, scripted: scripted)
    if !interactive {
        configuration.maxConcurrentTasks = options.concurrency
        configuration.maxConcurrentTasksPerHost = options.concurrency
    }
    // A run's requests are planned up front: a repeat count that would plan more than this is refused.
    let perRepeat = inputs.reduce(0) { $0 + $1.list.specs.count }
    let (planned, overflow) = perRepeat.multipliedReportingOverflow(by: options.repeatCount)
    if overflow || planned > maxPlannedRequests {
        printToStandardError("reqtop run: --repeat \(options.repeatCount) × \(perRepeat) request\(perRepeat == 1 ? "" : "s") is more than "
                             + "\(maxPlannedRequests) requests in one run; run it in parts")
        return 2
    }
    let manager = SessionManager(configuration: configuration)
    // Every task has ended and every file is written by the time this returns; the process exits next.
    defer { manager.invalidate(waitingForTheEngine: false) }
    let runner: RequestListRunner
    do {
        var runnerOptions = RunnerOptions(concurrency: options.concurrency, repeatCount: options.repeatCount,
                                          keepsBodies: interactive || options.settings.harPath != nil,
                                          keepsResults: !options.settings.reports.isEmpty, lookahead: ahead.lookahead)
        runnerOptions.callerSubmitsAhead = ahead.callerSubmitsAhead // the printing thread, between prints (runHeadless)
        runnerOptions.runsScripts = options.runsScripts
        if let limit = options.scriptTimeLimit { runnerOptions.scriptTimeLimit = limit }
        runner = try RequestListRunner(manager: manager, inputs: inputs, options: runnerOptions)
    } catch {
        printToStandardError(error.description)
        return 2
    }
    if interactive {
        return runListInteractively(runner, settings: options.settings,
                                    title: options.files.map { $0.lastPathComponent }.joined(separator: " "),
                                    warnings: inputs.reduce(0) { $0 + $1.list.warnings.count })
    }
    if let keep = options.settings.keepBodiesPath {
        printToStandardError("reqtop: --keep-bodies \(keep) is ignored: headless runs hold no bodies (use --har to keep them)")
    }
    return runHeadless(runner, settings: options.settings)
}
