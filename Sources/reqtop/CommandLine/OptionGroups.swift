import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopRequestLists
import ReqtopTasks

/// Options several commands share, declared once with their help (as swift-argument-parser's
/// `OptionGroup`): a command lists a group's `options` (or the members it takes), and reads them
/// back through the group, so `--no-mouse` means the same in `run`, `open`, `attach` and `proxy`.
protocol OptionGroup {
    static var options: [CommandOption] { get }
}

/// Variables for request lists: an environment from the env files beside a list, and `--var`.
enum VariableOptions: OptionGroup {
    static let environment = CommandOption.value("env", "NAME", help: "environment from http-client(.private).env.json beside each file")
    static let variable = CommandOption.value("var", "NAME=VALUE", help: "set a variable (repeatable; wins over environments and the file)")
    static let environmentFile = CommandOption.value("env-file", "FILE", help: "an environment file (a Postman *.postman_environment.json export): its values as the environment's")
    static let hurlVariable = CommandOption.value("variable", "NAME=VALUE", help: "the same as --var (Hurl's name for it)")
    static let variablesFile = CommandOption.value("variables-file", "FILE", help: "NAME=VALUE lines (Hurl's properties file): as --var, which wins")
    static let options = [environment, environmentFile, variable, hurlVariable, variablesFile]

    /// The `--variables-file` values, then the `--var` and `--variable` assignments over them, checked.
    static func variables(_ parsed: ParsedCommandLine) throws(UsageError) -> [String: String] {
        var values: [String: String] = [:]
        for file in parsed.values(variablesFile) {
            guard let data = FileManager.default.contents(atPath: file) else { throw UsageError("--variables-file \(file): cannot read it") }
            for (offset, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingWhitespace(also: "\r")
                if line.isEmpty || line.hasPrefix("#") { continue }
                guard let (name, value) = VariableContext.parseCommandLineVariable(line) else {
                    throw UsageError("\(file):\(offset + 1): expected NAME=VALUE, got '\(line)'")
                }
                values[name] = value
            }
        }
        values.merge(try commandLineVariables(parsed.values(hurlVariable) + parsed.values(variable))) { $1 }
        return values
    }
}

/// The terminal UI's mouse and its session journal.
enum TerminalUIOptions: OptionGroup {
    static let noMouse = CommandOption.flag("no-mouse", help: "terminal UI: leave the mouse to the terminal (no clicks or wheel)")
    static let noJournal = CommandOption.flag("no-journal", help: "do not journal the session (the terminal UI's, or a headless run with --har)")
    static let options = [noMouse, noJournal]

    static func mouse(_ parsed: ParsedCommandLine) -> Bool { !parsed.has(noMouse) }
    static func journal(_ parsed: ParsedCommandLine) -> Bool { !parsed.has(noJournal) }
}

/// Running without the terminal UI, and what it prints.
enum HeadlessOptions: OptionGroup {
    static let headless = CommandOption.flag("headless", help: "no terminal UI: print events and a summary")
    static let events = CommandOption.choice("events", EventFormat.allCases.map(\.rawValue), help: "headless output: readable lines (default) or JSON Lines")
    static let options = [headless, events]
}

/// How TLS certificates are checked.
enum TLSOptions: OptionGroup {
    static let insecure = CommandOption.flag("insecure", help: "do not verify TLS certificates")
    static let caFile = CommandOption.value("cacert", "FILE", help: "trust the CA certificates in FILE")
    static let options = [insecure, caFile]
}

/// Whether and how the scripts of `.http` lists run.
enum ScriptOptions: OptionGroup {
    static let noScripts = CommandOption.flag("no-scripts", help: "do not run the lists' scripts (< {% %}, > {% %}, > file.js): each is skipped, said once")
    static let scriptTimeout = CommandOption.value("script-timeout", "SECONDS", help: "stop a script that runs longer (default 5): its request fails")
    static let report = CommandOption.value("report", "junit=FILE|tap=FILE", help: "write the scripts' tests as a JUnit XML or TAP report (repeatable)")
    static let options = [noScripts, scriptTimeout, report]

    /// `--script-timeout`, checked (nil: the default).
    static func timeLimit(_ parsed: ParsedCommandLine) throws(UsageError) -> Double? {
        guard let text = parsed.value(scriptTimeout) else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("--script-timeout needs a number of seconds > 0, got '\(text)'")
        }
        return seconds
    }

    /// The `--report` requests, checked.
    static func reports(_ parsed: ParsedCommandLine) throws(UsageError) -> [TestReportRequest] {
        try parsed.values(report).map { (text: String) throws(UsageError) -> TestReportRequest in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let format = TestReportRequest.Format(rawValue: parts[0]), !parts[1].isEmpty else {
                throw UsageError("--report takes junit=FILE or tap=FILE, got '\(text)'")
            }
            return TestReportRequest(format: format, path: parts[1])
        }
    }
}

/// Whether what leaves the process keeps credentials (`ParsedCommandLine.secrets` reads it).
enum SecretOptions: OptionGroup {
    static let includeSecrets = CommandOption.flag("include-secrets",
                                                   help: "HAR, JSON Lines, exports and copies keep credentials in clear (redacted by default)")
    static let options = [includeSecrets]
}
