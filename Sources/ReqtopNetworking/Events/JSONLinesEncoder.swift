import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Encodes events as JSON Lines — one object per line, the stable schema of `--events jsonl`
/// (docs/events.md): an `EventLine` at its plain detail, written by `PlainLineWriter` straight from the event. Every line has `event`, `task` (integer)
/// and `time` (seconds since the epoch); header fields are always an ordered list of
/// `[name, value]` pairs, repeated names kept apart (Set-Cookie).
///
/// Keys are written in sorted order, and numbers, strings and arrays exactly as `JSONSerialization` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes them; the writer is hand-made because going through
/// `JSONSerialization` and `[String: Any]` was 86 % of a `reqtop run --events jsonl` process's instructions.
public enum JSONLinesEncoder {
    /// One event as one line of JSON, without the trailing newline, its secrets hidden by
    /// `redaction` (nil: in clear, `--include-secrets`; a `SecretPolicy` hands out the one to use).
    public static func line(for event: TaskEvent, redaction: Redaction?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        append(event, redaction: redaction, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of `event` (without the newline) to `bytes`: a batch of lines is written
    /// into one buffer, with no string per line.
    public static func append(_ event: TaskEvent, redaction: Redaction?, to bytes: inout [UInt8]) {
        PlainLineWriter.write(event, redaction: redaction, to: &bytes)
    }
}

/// Lines of `JSONLinesEncoder` for a batch of events, written straight into one buffer kept from
/// batch to batch: no buffer per line to allocate, fill and copy (a headless printer writes five or
/// six lines per request). Not thread-safe: one writer at a time.
package final class JSONLinesBuffer: @unchecked Sendable { // kept behind its owner's lock (`Protected`)
    private var sink: ByteSink
    /// A buffer grown past this by an exceptional batch is let go at the next `removeAll()`.
    private let keptCapacity: Int

    package init(capacity: Int = 64 << 10, keptCapacity: Int = 1 << 20) {
        sink = ByteSink(capacity: capacity)
        self.keptCapacity = keptCapacity
    }

    /// Appends the line of `event` and its newline.
    package func append(_ event: TaskEvent, redaction: Redaction?) {
        PlainLineWriter.write(event, redaction: redaction, into: sink)
        sink.append(UInt8(ascii: "\n"))
    }

    /// The bytes of the lines appended since the last `removeAll()` (valid only inside `body`).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try sink.withBytes { try body(UnsafeRawBufferPointer($0)) }
    }

    /// Empties the buffer for the next batch.
    package func removeAll() {
        if sink.capacity > keptCapacity { sink = ByteSink(capacity: 64 << 10) } else { sink.removeAll() }
    }
}
