import ReqtopNetworking

/// `reqtop --man`: the manual page (docs/reqtop.1, installed by `make install`) in roff, from the
/// same declarations as `--help` and `--manual` (a test fails when the file drifts from it).
func manPage(_ commands: [any Command.Type]) -> String {
    var page = """
        .TH REQTOP 1 "" "reqtop \(roff(ReqtopVersion.string))" "User Commands"
        .nh
        .ad l
        .SH NAME
        reqtop \\- a terminal HTTP request inspector
        .SH SYNOPSIS

        """
    for command in [InspectorCommand.self] + commands {
        page += ".B \(roff(command.usage))\n.br\n"
    }
    page += """
        .SH DESCRIPTION
        reqtop shows HTTP requests as a live table of tasks \\(em state, method, URL, status, size,
        duration, progress \\(em with a detail view of each (request, response headers, body,
        timing, events). It runs request lists (.http, HAR, curl, Postman, Insomnia, Hurl, Bruno),
        watches another program's requests (attach, proxy), and prints the same events as text or
        JSON Lines without a terminal.
        .SH COMMANDS

        """
    for command in [InspectorCommand.self] + commands {
        page += ".SS \(roff(command.usage))\n"
        page += paragraphs(command.abstract.prefix(1).uppercased() + command.abstract.dropFirst() + ".")
        page += ".PP\n" + paragraphs(command.discussion)
        for option in command.options + [CommandOption.help] {
            page += ".TP\n.B \(roff(option.synopsis))\n\(roff(option.help))\n"
        }
        if let footer = command.footer { page += ".PP\n" + paragraphs(footer) }
    }
    page += """
        .SH FILES
        .TP
        .I $XDG_STATE_HOME/reqtop/sessions/
        journals of past sessions (reqtop sessions, reqtop open).
        .SH SEE ALSO
        .BR curl (1),
        .BR hurl (1).
        The Markdown manual (docs/manual.md) and the documents beside it.

        """
    return page
}

/// Text as roff reads it literally: backslashes escaped, a dash written `\-`, a line starting
/// with `.` or `'` protected.
private func roff(_ text: some StringProtocol) -> String {
    var out = String(text).replacingEvery("\\", with: "\\e").replacingEvery("-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
}

/// Lines of declaration text: kept as written (`.nf` for lines indented as examples), each escaped.
private func paragraphs(_ text: some StringProtocol) -> String {
    var out = ""
    var preformatted = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let indented = line.hasPrefix("  ")
        if indented != preformatted {
            out += indented ? ".nf\n" : ".fi\n"
            preformatted = indented
        }
        out += line.isEmpty ? ".PP\n" : roff(line) + "\n"
    }
    if preformatted { out += ".fi\n" }
    return out
}
