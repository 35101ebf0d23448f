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

        package init(time: Double, message: StreamMessage) {
            self.time = time
            self.message = message
        }
    }

    package static let maxKeptBytes = 8 << 20
    package static let maxKept = 20_000

    /// The messages still held, oldest first: messages `released + 1` … `count`.
    package var entries: ArraySlice<Entry> { storage[head...] }
    /// Held messages from `head` on; those before it were let go and are dropped in bulk now and then.
    private var storage: [Entry] = []
    private var head = 0
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
        storage.append(Entry(time: time, message: message))
        keptBytes += message.data.utf8.count
        while head < storage.count - 1, keptBytes > Self.maxKeptBytes || storage.count - head > Self.maxKept {
            keptBytes -= storage[head].message.data.utf8.count
            head += 1
            released += 1
        }
        if head >= 1024 { // let go of them in bulk: an append moves the rest once per 1024, not every time
            storage.removeFirst(head)
            head = 0
        }
    }
}
