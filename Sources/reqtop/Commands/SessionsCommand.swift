#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import FoundationEssentials
import ReqtopTasks

/// `reqtop sessions`: the journaled sessions, newest first.
enum SessionsCommand: Command {
    static let name = "sessions"
    static let arguments = "[--prune [--keep N] [--max-size SIZE]]"
    static let abstract = "list past sessions (journals), newest first; --prune deletes the oldest"
    static let discussion = """
        Every terminal-UI session is journaled as it happens (unless --no-journal) in
        $XDG_STATE_HOME/reqtop/sessions/ (~/.local/state/reqtop/sessions/ without it), one
        JSON Lines file per session; the newest 50 sessions are kept within 2 GB, whichever
        comes first (the oldest are deleted when a session starts; a session still being
        written never). One line per session: its id, start time, number of tasks, size and
        what it showed. Open one with reqtop open ID, convert it with reqtop convert ID --to
        har|http|curl|hurl|postman.
        """
    static let prune = CommandOption.flag("prune", help: "delete the oldest sessions now (never one being written), and say which")
    static let keep = CommandOption.value("keep", "N", help: "with --prune: keep the newest N sessions (default 50)")
    static let maxSize = CommandOption.value("max-size", "SIZE", help: "with --prune: keep them within SIZE (bytes, or 500K, 200M, 2G; default 2G)")
    static let options: [CommandOption] = [prune, keep, maxSize]

    /// `2G`, `500M`, `10K`, `123` (bytes).
    static func size(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        let upper = text.uppercased().replacingEvery("B", with: "")
        if let unit = upper.last.flatMap({ units[$0] }), let n = Double(upper.dropLast()), n >= 0 { return Int64(n * Double(unit)) }
        return Int64(upper).flatMap { $0 >= 0 ? $0 : nil }
    }

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        try parsed.expectPositionals(atMost: 0)
        if parsed.has(prune) {
            var count = Journals.countLimit
            var limit = Journals.sizeLimit
            if let text = parsed.value(keep) {
                guard let n = Int(text), n >= 0 else { throw UsageError("--keep needs a number of sessions, got '\(text)'") }
                count = n
            }
            if let text = parsed.value(maxSize) {
                guard let n = size(text) else { throw UsageError("--max-size needs a size such as 500M or 2G, got '\(text)'") }
                limit = n
            }
            let removed = Journals.prune(keep: count, limit: limit)
            let freed = removed.reduce(Int64(0)) { $0 + $1.size }
            for session in removed { printToStandardError("deleted \(session.id) (\(ByteCount.format(session.size)))") }
            printToStandardError("pruned \(removed.count) session\(removed.count == 1 ? "" : "s") (\(ByteCount.format(freed))); "
                                 + "\(Journals.list(reading: false).count) left in \(Journals.directory.path)")
            return 0
        }
        if parsed.value(keep) != nil || parsed.value(maxSize) != nil { throw UsageError("--keep and --max-size go with --prune") }
        let sessions = Journals.list()
        guard !sessions.isEmpty else {
            printToStandardError("no sessions journaled yet in \(Journals.directory.path)")
            return 0
        }
        let formatter = DatePattern("yyyy-MM-dd HH:mm:ss", local: true)
        var text = ""
        for session in sessions {
            let started = session.info.map { formatter.string(from: Date(timeIntervalSince1970: $0.started)) } ?? "?"
            let tasks = "\(session.tasks) task\(session.tasks == 1 ? "" : "s")"
            let size = ByteCount.format(session.size).fitted(to: 9)
            text += "\(session.id)  \(started)  \(tasks.fitted(to: 10))  \(size)  \(session.info?.source ?? "?")\n"
        }
        FileDescriptorSink.standardOutput.write(text)
        return 0
    }
}
