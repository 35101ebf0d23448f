import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// The journals of past sessions: one append-only JSON Lines file per session in
/// `<state>/sessions/` (see `StateDirectory`), named by the session's id — its start time and
/// process id, `20261201-133720-4321` — so they sort by age. The oldest are deleted past the
/// newest `countLimit` (50) sessions or `sizeLimit` (2 GB), whichever comes first.
///
/// JSON Lines rather than sqlite: an append needs no library and no transaction, a process killed
/// mid-write leaves every earlier line intact (a torn last line is skipped), and the lines are the
/// same kind of JSON the headless output prints, readable with `jq`.
package enum Journals {
    /// 2: every event line is an `EventLine` (the schema of JSON Lines and the event stream);
    /// 1: the lines of `JournalV1Entry`, still read.
    package static let formatVersion = 2
    /// Bodies up to this size are kept in a journal.
    package static let bodyLimit = 1 << 20
    /// The folder keeps the newest `countLimit` sessions within `sizeLimit` bytes, whichever is
    /// reached first (the oldest go first; a session being written never).
    package static let sizeLimit: Int64 = 2 << 30
    package static let countLimit = 50

    package static var directory: URL { StateDirectory.url.appendingPathComponent("sessions") }

    /// Where a session's bodies over `bodyLimit` are kept: `<id>.bodies/` beside its journal.
    package static func bodiesFolder(of journal: URL) -> URL {
        journal.deletingPathExtension().appendingPathExtension("bodies")
    }

    /// The bytes of the files in `folder` (0 when there is none).
    static func size(ofFolder folder: URL) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { $0 + fileSize(folder.appendingPathComponent($1)) }
    }

    /// A regular file's size in bytes (0 for anything else, or when it cannot be read).
    static func fileSize(_ url: URL) -> Int64 {
        FileStatus(path: url.path).map { $0.isRegularFile ? $0.size : 0 } ?? 0
    }

    static func newID(at date: Date) -> String {
        DatePattern("yyyyMMdd-HHmmss", local: true).string(from: date) + "-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// A past session: its id, file, first line, how many tasks it recorded, and its size on disk
    /// (the journal and its bodies folder).
    package struct Summary: Sendable {
        package var id: String
        package var url: URL
        package var info: JournalSessionInfo?
        package var tasks: Int
        package var size: Int64
    }

    /// Every journal in `directory`, newest first. With `reading`, each is read for its first line
    /// and task count (`reqtop sessions`); without, only names and sizes (pruning, locating).
    package static func list(in directory: URL = directory, reading: Bool = true) -> [Summary] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.map { directory.appendingPathComponent($0) }.filter { $0.pathExtension == "jsonl" }.map { url in
            let id = url.deletingPathExtension().lastPathComponent
            let size = fileSize(url) + size(ofFolder: bodiesFolder(of: url))
            guard reading else { return Summary(id: id, url: url, info: nil, tasks: 0, size: size) }
            let data = (try? Data(contentsOf: url)) ?? Data()
            let firstLine = data.split(separator: 0x0A, maxSplits: 1).first.map { Data($0) }
            let info = firstLine.flatMap { try? JSONDecoder().decode(JournalHeader.self, from: $0).session }
            return Summary(id: id, url: url, info: info, tasks: countCreated(in: data), size: size)
        }.sorted { $0.id > $1.id }
    }

    private static func countCreated(in data: Data) -> Int {
        let marker = Array(#""event":"created""#.utf8)
        var count = 0
        for line in data.split(separator: 0x0A) where line.count > marker.count {
            if line.firstRange(of: marker) != nil { count += 1 }
        }
        return count
    }

    /// The journal file for an id (or an unambiguous prefix of one), or a path given as is.
    package static func locate(_ idOrPath: String, in directory: URL = directory) -> URL? {
        if FileManager.default.fileExists(atPath: idOrPath) { return URL(fileURLWithPath: idOrPath) }
        let matches = list(in: directory, reading: false).filter { $0.id == idOrPath || $0.id.hasPrefix(idOrPath) }
        if let exact = matches.first(where: { $0.id == idOrPath }) { return exact.url }
        return matches.count == 1 ? matches[0].url : nil
    }

    /// Why `idOrPath` names no journal: nothing matches, or a prefix matches several (named).
    package static func whyNotFound(_ idOrPath: String, in directory: URL = directory) -> String {
        let matches = list(in: directory, reading: false).filter { $0.id.hasPrefix(idOrPath) }.map(\.id)
        if matches.count > 1 {
            return "'\(idOrPath)' matches \(matches.count) sessions (\(matches.prefix(3).joined(separator: ", "))\(matches.count > 3 ? ", …" : "")): give more of the id"
        }
        return "no file and no session '\(idOrPath)' (reqtop sessions lists them)"
    }

    /// Whether `data` starts like a journal (its first line names the format).
    package static func isJournal(_ data: Data) -> Bool {
        data.prefix(200).firstRange(of: Data(#"{"journal":"#.utf8)) != nil
    }

    /// A journal read back: the session, its events in order, and what could not be read.
    package struct Contents: Sendable {
        package var info: JournalSessionInfo?
        package var events: [TaskEvent]
        /// Lines skipped (a line cut by a kill, a newer format), said to the user.
        package var skippedLines: Int
    }

    package static func read(_ url: URL) throws -> Contents {
        let data = try Data(contentsOf: url)
        var contents = Contents(info: nil, events: [], skippedLines: 0)
        var lines = data.split(separator: 0x0A).makeIterator()
        var version = formatVersion
        if let first = lines.next() {
            if let header = try? JSONDecoder().decode(JournalHeader.self, from: Data(first)) {
                contents.info = header.session
                version = header.journal
            } else {
                contents.skippedLines += 1
            }
        }
        let v1 = JSONDecoder()
        var reader = EventLineReader()
        while let line = lines.next() {
            guard !line.isEmpty else { continue }
            let event: TaskEvent? = if version == 1 {
                (try? v1.decode(JournalV1Entry.self, from: Data(line)))?.taskEvent
            } else {
                EventLine(json: Data(line)).flatMap { reader.event(from: $0) }
            }
            if let event { contents.events.append(event) } else { contents.skippedLines += 1 }
        }
        return contents
    }

    /// Deletes the oldest journals until the folder holds at most `keep` sessions within `limit`
    /// bytes. Never deleted: `keeping`, and a journal a running session is writing (it holds an
    /// exclusive lock on it; one whose process died holds none). Returns the sessions deleted.
    @discardableResult
    package static func prune(in directory: URL = directory, keep: Int = countLimit, limit: Int64 = sizeLimit,
                              keeping: URL? = nil) -> [Summary] {
        var journals = list(in: directory, reading: false) // newest first
        var total = journals.reduce(0) { $0 + $1.size }
        var removed: [Summary] = []
        var index = journals.count - 1
        while index >= 0, total > limit || journals.count > keep {
            let oldest = journals[index]
            index -= 1
            if oldest.url.standardizedFileURL == keeping?.standardizedFileURL || isBeingWritten(oldest.url) { continue }
            guard (try? FileManager.default.removeItem(at: oldest.url)) != nil else { continue }
            try? FileManager.default.removeItem(at: bodiesFolder(of: oldest.url))
            journals.removeAll { $0.url == oldest.url }
            total -= oldest.size
            removed.append(oldest)
        }
        return removed
    }

    /// Whether a session is writing `url` now (it holds the journal's lock).
    static func isBeingWritten(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
