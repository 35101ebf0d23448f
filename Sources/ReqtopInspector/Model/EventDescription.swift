import Foundation
import ReqtopNetworking

/// Readable payload lines for an event, as the timeline and the event log show them.
/// The text may carry anything the network sent: the UI sanitizes it when drawing.
enum EventDescription {
    static func payload(of event: TaskEvent) -> [String] {
        switch event.kind {
        case .created(let description):
            var lines = ["\(description.method) \(description.url.absoluteString)"]
            if let name = description.name { lines.append("name: \(name)") }
            lines.append("kind: \(description.kind.rawValue), \(description.headers.count) request headers"
                         + (description.body.map { ", body \(ByteCount.format(Int64($0.count)))" } ?? ""))
            return lines
        case .resumed, .suspended, .cancelled:
            return []
        case .redirected(let hop):
            return ["\(hop.status) \(hop.from.absoluteString) → \(hop.to.absoluteString)"]
        case .response(let head):
            return ["HTTP/\(head.httpVersion) \(head.status) \(head.reason)"] + head.headers.map { "\($0.name): \($0.value)" }
        case .progress(let progress):
            let total = progress.total >= 0 ? " of \(ByteCount.format(progress.total))" : ""
            return ["\(progress.direction.rawValue) \(ByteCount.format(progress.completed))\(total)"]
        case .completed(let completion):
            var lines = ["status \(completion.response.status), \(ByteCount.format(completion.bytes)), \(Milliseconds.format(completion.timings.total))",
                         "serializer \(completion.serializer)"]
            if case .file(let file)? = completion.body { lines.append("body file \(file.url.path)") }
            if let error = completion.serializationError { lines.append("serialization error: \(error)") }
            lines.append(timingLine(completion.timings))
            return lines
        case .failed(let failure):
            var lines = ["\(failure.error.code.rawValue): \(failure.error.message)"]
            if let status = failure.response?.status { lines.append("status \(status)") }
            if let timings = failure.timings { lines.append(timingLine(timings)) }
            return lines
        }
    }

    /// One line for the event log pane.
    static func logLine(_ event: TaskEvent, record: TaskRecord?) -> String {
        let what = payload(of: event).first.map { " " + $0 } ?? ""
        let target = record.map { " \($0.method) \($0.hostAndPort)\($0.pathAndQuery)" } ?? ""
        switch event.kind {
        case .created, .resumed, .suspended, .cancelled: return "\(event.task) \(event.name.rawValue)\(target)"
        default: return "\(event.task) \(event.name.rawValue)\(what)"
        }
    }

    static func timingLine(_ t: PhaseTimings) -> String {
        "dns \(Milliseconds.format(t.dns)) connect \(Milliseconds.format(t.connect)) tls \(Milliseconds.format(t.tls)) "
            + "send \(Milliseconds.format(t.send)) wait \(Milliseconds.format(t.wait)) receive \(Milliseconds.format(t.receive))"
    }
}
