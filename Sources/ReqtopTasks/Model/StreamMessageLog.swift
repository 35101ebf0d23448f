import ReqtopHTTPModel
import ReqtopNetworking

/// The messages of a task's streamed response (server-sent events, NDJSON lines, JSON array
/// elements), in arrival order, with the time each arrived. Memory is bounded: past
/// `maxKeptBytes` of data or `maxKept` messages the oldest are let go — counted in `released`,
/// still in the session's journal and its JSON Lines, and said to be gone where they were shown.
package struct StreamMessageLog: Sendable {
    package struct Entry: Sendable {
        /// Seconds since 1970 when it arrived.
        package let time: Double
        package let message: StreamMessage
    }

    package static let maxKeptBytes = 8 << 20
    package static let maxKept = 20_000

    /// The messages still held, oldest first: messages `released + 1` … `count`.
    package private(set) var entries: [Entry] = []
    /// How many arrived in all.
    package private(set) var count = 0
    /// How many of the first ones were let go to bound memory.
    package private(set) var released = 0
    /// Bytes of data held.
    package private(set) var keptBytes = 0
    /// Bytes of data that arrived in all, held or not.
    package private(set) var totalBytes: Int64 = 0
    package private(set) var format: StreamMessage.Format?

    package init() {}

    package mutating func append(_ message: StreamMessage, at time: Double) {
        format = message.format
        count += 1
        totalBytes += Int64(message.size)
        entries.append(Entry(time: time, message: message))
        keptBytes += message.data.utf8.count
        var drop = 0
        while drop < entries.count - 1, keptBytes > Self.maxKeptBytes || entries.count - drop > Self.maxKept {
            keptBytes -= entries[drop].message.data.utf8.count
            drop += 1
        }
        if drop > 0 {
            entries.removeFirst(drop)
            released += drop
        }
    }
}
