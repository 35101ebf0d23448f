import ReqtopNetworking

/// A command line that was wrong: what is wrong, said for the user.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The options and positional arguments of one subcommand, as given. Options are asked for by
/// their declaration (`parsed.has(RunCommand.dryRun)`), so a misspelt name does not compile.
struct ParsedCommandLine {
    /// Flags that were given (long names).
    fileprivate(set) var flags: Set<String> = []
    /// Option values by long name, in order given (repeatable options keep every value).
    fileprivate(set) var values: [String: [String]] = [:]
    fileprivate(set) var positionals: [String] = []

    var helpRequested: Bool { flags.contains(CommandOption.help.long) }

    /// What this command's exports, HAR files, JSON Lines and copies hide: everything secret,
    /// unless `--include-secrets` was given (one switch for every command that can export). One
    /// policy per command: the private env values its lists use are registered with it.
    let secrets: SecretPolicy

    init(secrets: SecretPolicy = SecretPolicy()) { self.secrets = secrets }

    func has(_ flag: CommandOption) -> Bool { flags.contains(flag.long) }

    /// The last value given for `option`.
    func value(_ option: CommandOption) -> String? { values[option.long]?.last }

    /// Every value given for a repeatable `option`.
    func values(_ option: CommandOption) -> [String] { values[option.long] ?? [] }

    /// An integer option ≥ `minimum`, or `fallback` when absent.
    func integer(_ option: CommandOption, minimum: Int, default fallback: Int) throws(UsageError) -> Int {
        guard let text = value(option) else { return fallback }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("--\(option.long) needs a whole number >= \(minimum), got '\(text)'")
        }
        return number
    }

    /// The headless output format (`--events`, checked by the parser), or nil when not given.
    var eventFormat: EventFormat? { value(HeadlessOptions.events).flatMap(EventFormat.init(rawValue:)) }

    /// Refuses positional arguments beyond `count`.
    func expectPositionals(atMost count: Int) throws(UsageError) {
        if positionals.count > count { throw UsageError("unexpected argument '\(positionals[count])'") }
    }
}

/// Parses arguments against a fixed set of options: `--flag`, `--opt value`, `--opt=value`,
/// `-o value`, `-ovalue`, repeated options, positional arguments anywhere, and `--` to end options.
/// `--help`/`-h` is always accepted. Anything else starting with `-` is a usage error.
struct CommandLineParser {
    let options: [CommandOption]

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        let inClear = options.contains { $0.long == SecretOptions.includeSecrets.long } && arguments.contains("--include-secrets")
        var parsed = ParsedCommandLine(secrets: SecretPolicy(redacts: !inClear))
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.flags.insert(CommandOption.help.long)
                continue
            }
            let option: CommandOption
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name: Substring
                if let eq = body.firstIndex(of: "=") {
                    name = body[..<eq]
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    name = body
                }
                guard let found = options.first(where: { $0.long == name }) else {
                    throw UsageError("unknown option '--\(name)'")
                }
                option = found
            } else {
                let letter = argument.dropFirst().first!
                guard let found = options.first(where: { $0.short == letter }) else {
                    throw UsageError("unknown option '-\(letter)'")
                }
                option = found
                let rest = argument.dropFirst(2)
                if !rest.isEmpty {
                    guard option.takesValue else { throw UsageError("option '-\(letter)' takes no value") }
                    inlineValue = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
                }
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option '--\(option.long)' needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if let choices = option.choices, !choices.contains(value) {
                    throw UsageError("--\(option.long) must be \(choices.joined(separator: " or ")), got '\(value)'")
                }
                parsed.values[option.long, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw UsageError("option '--\(option.long)' takes no value") }
                parsed.flags.insert(option.long)
            }
        }
        return parsed
    }
}
