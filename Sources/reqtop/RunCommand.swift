import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists

/// The parsed options of `reqtop run`.
struct RunOptions {
    var files: [String] = []
    var environment: String?
    var variables: [String: String] = [:]
    var concurrency = 1
    var repeatCount = 1
    var headless = false
    var settings = HeadlessSettings()
    var insecure = false
    var caFile: String?
    var timeout: Double?
    var dryRun = false
    var compressed = false

    static let parser = CommandLineParser(options: [
        .value("env"), .value("var"), .value("concurrency"), .value("repeat"), .flag("headless"), .value("events"),
        .value("har"), .flag("insecure"), .value("cacert"), .value("timeout"), .flag("fail-on-status"), .flag("dry-run"),
        .flag("compressed"),
    ])

    init() {}

    init(_ parsed: ParsedCommandLine) throws(UsageError) {
        files = parsed.positionals
        guard !files.isEmpty else { throw UsageError("no request list given: reqtop run FILE...") }
        environment = parsed.value("env")
        for argument in parsed.allValues("var") {
            guard let (name, value) = VariableContext.parseCommandLineVariable(argument) else {
                throw UsageError("--var needs NAME=VALUE, got '\(argument)'")
            }
            variables[name] = value
        }
        concurrency = try parsed.integer("concurrency", minimum: 1, default: 1)
        repeatCount = try parsed.integer("repeat", minimum: 1, default: 1)
        headless = parsed.has("headless")
        if let events = parsed.value("events") {
            guard let format = EventFormat(rawValue: events) else {
                throw UsageError("--events must be text or jsonl, got '\(events)'")
            }
            settings.format = format
        }
        settings.harPath = parsed.value("har")
        settings.failOnStatus = parsed.has("fail-on-status")
        insecure = parsed.has("insecure")
        if let file = parsed.value("cacert") {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw UsageError("--cacert: cannot read '\(file)'")
            }
            caFile = file
        }
        if let text = parsed.value("timeout") {
            guard let seconds = Double(text), seconds > 0 else {
                throw UsageError("--timeout needs a number of seconds > 0, got '\(text)'")
            }
            timeout = seconds
        }
        dryRun = parsed.has("dry-run")
        compressed = parsed.has("compressed")
    }
}

/// `reqtop run FILE... [options]`.
func runRunCommand(_ arguments: [String]) -> Int32 {
    let options: RunOptions
    do {
        let parsed = try RunOptions.parser.parse(arguments)
        if parsed.has("help") {
            print(HelpText.run)
            return 0
        }
        options = try RunOptions(parsed)
    } catch {
        return usageFailure("run", error)
    }
    let inputs: [RunnerInput]
    do {
        inputs = try loadInputs(files: options.files, environment: options.environment, variables: options.variables)
    } catch {
        printToStandardError(error.description)
        return 2
    }
    if options.dryRun { return dryRun(inputs, options: options) }
    return replay(inputs, options: options)
}

/// Loads each list and its variables; warnings go to stderr.
func loadInputs(files: [String], environment: String?, variables: [String: String]) throws(RequestListError) -> [RunnerInput] {
    var inputs: [RunnerInput] = []
    for file in files {
        let list = try RequestListLoader.load(path: file)
        for warning in list.warnings { printToStandardError(warning.description) }
        let context = try VariableContext.load(besides: file, environmentName: environment, commandLine: variables)
        inputs.append(RunnerInput(list: list, variables: context))
    }
    return inputs
}

/// `--dry-run`: validates and prints the resolved requests; sends nothing.
private func dryRun(_ inputs: [RunnerInput], options: RunOptions) -> Int32 {
    let configuration = sessionConfiguration(options)
    var text = ""
    for input in inputs {
        let resolver = RequestResolver(list: input.list, variables: input.variables)
        do {
            try resolver.validate()
        } catch {
            printToStandardError(error.description)
            return 2
        }
        if inputs.count > 1 { text += "# \(input.list.sourcePath)\n" }
        text += DryRun.text(for: resolver, configuration: configuration)
    }
    FileDescriptorSink.standardOutput.write(text)
    return 0
}

/// The session a run sends with. Like curl, it asks for compressed responses only when told to
/// (`--compressed`, or per request: `# @compressed`, curl's `--compressed`).
func sessionConfiguration(_ options: RunOptions) -> SessionConfiguration {
    var configuration = SessionConfiguration()
    configuration.insecure = options.insecure
    configuration.caFile = options.caFile
    configuration.requestTimeout = options.timeout
    configuration.compression = options.compressed
    configuration.maxConcurrentTasks = max(configuration.maxConcurrentTasks, options.concurrency)
    configuration.maxConcurrentTasksPerHost = max(configuration.maxConcurrentTasksPerHost, options.concurrency)
    return configuration
}

/// Sends the lists (headless or in the UI) and returns the exit code.
func replay(_ inputs: [RunnerInput], options: RunOptions) -> Int32 {
    let manager = SessionManager(configuration: sessionConfiguration(options))
    defer { manager.invalidate() }
    let runner: RequestListRunner
    do {
        runner = try RequestListRunner(manager: manager, inputs: inputs,
                                       options: RunnerOptions(concurrency: options.concurrency, repeatCount: options.repeatCount))
    } catch {
        printToStandardError(error.description)
        return 2
    }
    if !options.headless && isatty(0) == 1 && isatty(1) == 1 {
        return runListInteractively(runner, settings: options.settings,
                                    title: options.files.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))
    }
    return runHeadless(runner, settings: options.settings)
}
