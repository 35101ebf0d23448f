import Foundation

/// The lines of an event stream (`SessionManager.publishEvents`): the JSON Lines schema of
/// `JSONLinesEncoder`, plus what a viewer needs to show a task again in full — the request body
/// and task kind on `created`, the target, size and hop of each head sent, reason and version of
/// each response head (and its URL), and bodies up to a limit (base64) on `completed`, `failed`
/// and `cancelled`, with `bodyOmitted` when one was larger. Every field of the plain schema is
/// there with the same meaning, so a reader of `--events jsonl` reads a stream too.
public enum EventStreamEncoder {
    /// One event as one line (no newline); bodies over `bodyLimit` bytes are left out and named.
    public static func line(for event: TaskEvent, bodyLimit: Int, redaction: Redaction?) -> String {
        JSONLinesEncoder.line(for: event, streamBodyLimit: bodyLimit, redaction: redaction)
    }
}
