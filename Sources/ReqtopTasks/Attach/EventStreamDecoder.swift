import FoundationEssentials
import ReqtopNetworking

/// Reads an event stream (`SessionManager.publishEvents`, see `EventStreamEncoder`) back into
/// task events for a `TaskStore`: its own lines (hello, replies, overflow) here, the event lines
/// through the one schema (`EventLine`, `EventLineReader`). Task ids are remapped (`idOffset`), so a reconnection's
/// tasks never collide with an earlier connection's.
package struct EventStreamDecoder {
    /// What one line was.
    package enum Line {
        case hello(EventStreamHello)
        case event(TaskEvent)
        /// A reply to a command (`{"event":"reply"}`).
        case reply(task: Int, outcome: String)
        /// The publisher dropped this reader (it fell behind): the stream ends.
        case overflow(String)
        /// A line this reader does not understand (a newer schema, or not JSON): skipped.
        case unreadable
    }

    private var reader = EventLineReader()
    /// Added to every task id of this connection.
    package var idOffset: Int

    package init(idOffset: Int = 0) { self.idOffset = idOffset }

    package mutating func decode(_ line: Data) -> Line {
        guard let o = try? JSONValue(parsing: line), let name = o["event"]?.stringValue else { return .unreadable }
        func int(_ key: String) -> Int? { if case .number(let text)? = o[key] { Int(text) } else { nil } }
        switch name {
        case "hello":
            let started: Double? = if case .number(let text)? = o["started"] { Double(text) } else { nil }
            return .hello(EventStreamHello(process: o["process"]?.stringValue ?? "?", pid: int("pid") ?? 0,
                                           started: started ?? 0, controlAllowed: o["control"]?.stringValue == "allowed"))
        case "reply": return .reply(task: int("task") ?? 0, outcome: o["outcome"]?.stringValue ?? "")
        case "overflow": return .overflow(o["reason"]?.stringValue ?? "the stream overflowed")
        default: break
        }
        // An id outside a connection's span would collide with another connection's (or overflow).
        guard let eventLine = EventLine(json: o), eventLine.task >= 0, eventLine.task < EventStreamClient.idSpan,
              var event = reader.event(from: eventLine) else { return .unreadable }
        event.task = TaskID(rawValue: eventLine.task + idOffset)
        return .event(event)
    }
}

/// The first line of a stream: which process publishes it, and whether it takes commands.
package struct EventStreamHello: Sendable, Equatable {
    package var process: String
    package var pid: Int
    package var started: Double
    package var controlAllowed: Bool
}
