import ReqtopNetworking

/// `reqtop --help`: one line per command, from the commands' declarations.
func mainHelp(_ commands: [any Command.Type]) -> String {
    func line(_ usage: String, _ abstract: String) -> String {
        "  " + usage + String(repeating: " ", count: max(2, 40 - usage.count)) + abstract
    }
    var text = "reqtop \(ReqtopVersion.string) — a terminal HTTP request inspector\n\nUsage:\n"
    text += line(InspectorCommand.usage, InspectorCommand.abstract) + "\n"
    for command in commands {
        text += line("reqtop \(command.name) \(command.briefArguments)", command.abstract) + "\n"
    }
    text += """

        Options:
          -h, --help       show this help (also: reqtop COMMAND --help)
          --version        print the version

        Exit codes: 0 every task completed, 1 a task failed or was cancelled,
        2 usage or parse error, 130 interrupted.
        """
    return text
}
