#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import FoundationEssentials
import ReqtopTasks

/// `reqtop open ID|FILE`: a journaled session or a HAR file in the inspector, read-only.
enum OpenCommand: Command {
    static let name = "open"
    static let arguments = "ID|FILE [--no-mouse]"
    static let briefArguments = "ID|FILE"
    static let abstract = "open a past session (an id from reqtop sessions, a journal or a HAR file), read-only"
    static let discussion = """
        Shows a saved session in the inspector: every screen works (table, detail, timeline,
        filters, diff, HAR save); the saved tasks cannot be suspended or cancelled, but r sends
        a task's request again on purpose, and n and e send new ones (they join the table).
        ID may be a unique prefix of a session id.
        """
    static let options = [TerminalUIOptions.noMouse] + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        guard parsed.positionals.count == 1 else { throw UsageError("give one session id, journal or HAR file") }
        let argument = parsed.positionals[0]
        guard let url = Journals.locate(argument) else {
            printToStandardError("reqtop open: " + Journals.whyNotFound(argument))
            return 2
        }
        let saved: Recording
        do {
            saved = try Recording.load(url)
        } catch {
            printToStandardError("reqtop open: cannot read \(url.path): \(error.readableDescription)")
            return 2
        }
        guard isatty(0) == 1, isatty(1) == 1 else {
            printToStandardError("reqtop open: the inspector needs a terminal; use reqtop convert \(argument) --to har for a file")
            return 2
        }
        let manager = SessionManager(configuration: inspectorConfiguration(firstTaskID: (saved.events.map(\.task.rawValue).max() ?? 0) + 1))
        defer { manager.invalidate() }
        // Opening a session is not a new session: nothing is journaled unless requests are sent.
        let outcome = runInteractive(manager: manager, title: saved.title,
                                     options: InteractiveOptions(secrets: parsed.secrets, mouse: TerminalUIOptions.mouse(parsed), journal: false,
                                                                 saved: saved)) { _ in }
        return outcome.reason.exitCode
    }
}
