/// The variables a list is resolved with, apart from the list's own file variables.
///
/// Precedence, highest first: command-line `--var` values, the selected environment
/// (private values override public ones), then the `.http` file's `@name = value` variables.
public struct VariableContext: Sendable, Hashable {
    /// The selected environment's name, if any (for messages).
    public var environmentName: String?
    /// The environment's values, public and private merged (private wins).
    public var environment: [String: String]
    /// `--var name=value` values; they win over everything.
    public var commandLine: [String: String]
    /// The private env file's values: they must never leave the process in clear (register them with
    /// the program's `SecretPolicy`).
    public var secretValues: [String] = []

    public init(environmentName: String? = nil, environment: [String: String] = [:], commandLine: [String: String] = [:]) {
        self.environmentName = environmentName
        self.environment = environment
        self.commandLine = commandLine
    }

    /// Loads the environment `name` from the env files beside `httpFile` (none when `name` is nil).
    public static func load(
        besides httpFile: String, environmentName name: String?, commandLine: [String: String] = [:]
    ) throws(RequestListError) -> VariableContext {
        let values = try Environments.load(besides: httpFile, name: name)
        var context = VariableContext(environmentName: name, environment: values, commandLine: commandLine)
        if name != nil { context.secretValues = Environments.secretValues(besides: httpFile) }
        return context
    }

    /// Parses `--var` arguments of the form `name=value`.
    public static func parseCommandLineVariable(_ argument: String) -> (name: String, value: String)? {
        guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex else { return nil }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }
}
