import FoundationEssentials

/// The first line of a journal: the format version and the session it records. Every other line
/// is an `EventLine` at full detail (format 2) — the schema JSON Lines and the event stream share.
struct JournalHeader: Codable {
    /// The journal format version.
    var journal: Int
    var session: JournalSessionInfo
}

/// What the first line of a journal says about the session.
package struct JournalSessionInfo: Codable, Sendable {
    package var id: String
    /// Seconds since 1970.
    package var started: Double
    /// What the session replayed or showed: a list's file names, a URL, "interactive session".
    package var source: String
    package var pid: Int32
    package var version: String
}
