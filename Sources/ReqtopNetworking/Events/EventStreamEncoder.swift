import FoundationEssentials

/// The lines of an event stream (`SessionManager.publishEvents`): `EventLine`s at full detail —
/// the JSON Lines schema of `JSONLinesEncoder` plus what a viewer needs to show a task again in full
/// (request body and options, task kind, head sizes, reasons and versions, bodies up to a limit as
/// base64 with `bodyOmitted` when one was larger). Every field of the plain schema is there with
/// the same meaning, so a reader of `--events jsonl` reads a stream too. The session journal writes
/// the same lines.
public enum EventStreamEncoder {
    /// One event as one line (no newline); bodies over `bodyLimit` bytes are left out and named.
    public static func line(for event: TaskEvent, bodyLimit: Int, redaction: Redaction?) -> String {
        EventLine(event, detail: .full(bodyLimit: bodyLimit, keptBy: "stream"), redaction: redaction).text
    }
}
