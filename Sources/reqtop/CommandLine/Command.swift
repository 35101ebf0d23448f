import ReqtopNetworking

/// Every subcommand, in `reqtop --help`'s order.
var allCommands: [any Command.Type] {
    [RunCommand.self, ConvertCommand.self, SessionsCommand.self, OpenCommand.self, AttachCommand.self, ProxyCommand.self, DemoCommand.self,
     ServeCommand.self, CompletionCommand.self]
}

/// A subcommand declared once: its name, arguments, one-line abstract, description and options.
/// Parsing, validation of option names, `--help` and `reqtop --help` all come from this declaration.
protocol Command {
    /// The word after `reqtop`, e.g. `run`.
    static var name: String { get }
    /// The arguments after the name in usage lines, e.g. `FILE... [options]`.
    static var arguments: String { get }
    /// The arguments as `reqtop --help` lists them (default: `arguments`).
    static var briefArguments: String { get }
    /// One line for `reqtop --help`.
    static var abstract: String { get }
    /// What `reqtop NAME --help` says before the options.
    static var discussion: String { get }
    static var options: [CommandOption] { get }
    /// What `--help` says after the options (exit codes), if anything.
    static var footer: String? { get }
    /// Runs the command; throws for a command line that is wrong.
    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32
    /// Reports a usage error and returns the exit code (2).
    static func usageFailure(_ error: UsageError) -> Int32
}

extension Command {
    static var footer: String? { nil }
    static var briefArguments: String { arguments }

    static func usageFailure(_ error: UsageError) -> Int32 {
        printToStandardError("reqtop \(name): \(error.message)\nRun 'reqtop \(name) --help' for usage.")
        return 2
    }

    /// Parses `arguments` against `options`, answers `--help`, else runs.
    static func main(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            let parsed = try CommandLineParser(options: options).parse(arguments)
            if parsed.helpRequested {
                print(help)
                return 0
            }
            return try run(parsed)
        } catch {
            return usageFailure(error)
        }
    }

    /// `reqtop NAME ARGUMENTS`.
    static var usage: String { name.isEmpty ? "reqtop \(arguments)" : "reqtop \(name) \(arguments)" }

    /// The `--help` text.
    static var help: String {
        var text = "Usage: \(usage)\n\n\(discussion)\n\nOptions:\n"
        for option in options + [CommandOption.help] { text += option.helpLine + "\n" }
        if let footer { text += "\n\(footer)\n" }
        return text
    }
}

/// One option of a command: its names, its value's placeholder (none for a flag) and its help.
struct CommandOption: Hashable, Sendable {
    /// The long name without dashes (`concurrency`).
    let long: String
    /// The one-letter short name (`o` for `-o`), if any.
    let short: Character?
    /// The value's placeholder in help (`N`, `FILE`); nil for a flag.
    let valueName: String?
    let help: String
    /// The only values the option takes (`text`, `jsonl`), checked when the line is parsed; nil: any.
    var choices: [String]? = nil

    var takesValue: Bool { valueName != nil }

    static func flag(_ long: String, short: Character? = nil, help: String) -> CommandOption {
        CommandOption(long: long, short: short, valueName: nil, help: help)
    }

    static func value(_ long: String, short: Character? = nil, _ valueName: String, help: String) -> CommandOption {
        CommandOption(long: long, short: short, valueName: valueName, help: help)
    }

    /// An option whose value is one of `choices` (its placeholder is them, joined with `|`).
    static func choice(_ long: String, _ choices: [String], help: String) -> CommandOption {
        // Not `joined(separator:)`: its first use looked up a type by name across the whole binary,
        // a tenth of a millisecond of every start-up (this runs while the option tables are built).
        CommandOption(long: long, short: nil, valueName: choices.dropFirst().reduce(choices.first ?? "") { $0 + "|" + $1 },
                      help: help, choices: choices)
    }

    /// `--help`/`-h`, which every command accepts.
    static let help = flag("help", short: "h", help: "show this help")

    /// `-o, --output OUT` or `--env NAME`.
    var synopsis: String {
        (short.map { "-\($0), " } ?? "") + "--\(long)" + (valueName.map { " \($0)" } ?? "")
    }

    /// One aligned line of `--help`.
    var helpLine: String {
        let left = "  " + synopsis
        return left + String(repeating: " ", count: max(2, 26 - left.count)) + help
    }
}
