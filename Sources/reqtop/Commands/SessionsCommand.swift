#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import Foundation
import ReqtopTasks

/// `reqtop sessions`: the journaled sessions, newest first.
enum SessionsCommand: Command {
    static let name = "sessions"
    static let arguments = ""
    static let abstract = "list past sessions (journals), newest first"
    static let discussion = """
        Every terminal-UI session is journaled as it happens (unless --no-journal) in
        $XDG_STATE_HOME/reqtop/sessions/ (~/.local/state/reqtop/sessions/ without it), one
        JSON Lines file per session; the oldest are deleted past 512 MB. One line per session:
        its id, start time, number of tasks and what it showed. Open one with reqtop open ID,
        convert it with reqtop convert ID --to har|http|curl.
        """
    static let options: [CommandOption] = []

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        let sessions = Journals.list()
        guard !sessions.isEmpty else {
            printToStandardError("no sessions journaled yet in \(Journals.directory.path)")
            return 0
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var text = ""
        for session in sessions {
            let started = session.info.map { formatter.string(from: Date(timeIntervalSince1970: $0.started)) } ?? "?"
            let tasks = "\(session.tasks) task\(session.tasks == 1 ? "" : "s")"
            text += "\(session.id)  \(started)  \(tasks.padding(toLength: 10, withPad: " ", startingAt: 0))  \(session.info?.source ?? "?")\n"
        }
        FileDescriptorSink.standardOutput.write(text)
        return 0
    }
}
