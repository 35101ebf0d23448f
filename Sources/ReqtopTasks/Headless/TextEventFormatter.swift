import ReqtopNetworking
import ReqtopTerminalText

/// Turns bus events into the readable lines of headless text mode, one per lifecycle event:
///
/// ```
/// #3 created   GET http://127.0.0.1:8080/get
/// #3 resumed
/// #3 sent      GET http://127.0.0.1:8080/get HTTP/1.1 (Host, User-Agent, Accept)
/// #3 redirect  302 → http://127.0.0.1:8080/get
/// #3 response  200 OK
/// #3 progress  45.2 KB / 195 KB (23%)
/// #3 GET http://127.0.0.1:8080/get → 200 OK 1.2 KB 45 ms
/// #4 GET http://127.0.0.1:1/ ✗ cannotConnect: Couldn't connect to server
/// ```
///
/// Progress is printed at most `progressInterval` apart per task (event time); everything that came
/// from the network passes through the sanitizer.
package struct TextEventFormatter: Sendable {
    /// Minimum seconds between two progress lines of one task.
    package var progressInterval: Double

    private struct TaskInfo {
        var method = "?"
        var url = "?"
        var lastProgress: Double = -.infinity
    }

    private var tasks: [TaskID: TaskInfo] = [:]

    package init(progressInterval: Double = 0.25) {
        self.progressInterval = progressInterval
    }

    /// The line for `event` (without newline), or nil when it is not printed (throttled progress).
    package mutating func line(for event: TaskEvent) -> String? {
        let id = event.task.description
        switch event.kind {
        case .created(let description):
            var info = TaskInfo()
            info.method = clean(description.method)
            info.url = clean(description.url.absoluteString)
            tasks[event.task] = info
            let name = description.name.map { " [\(clean($0))]" } ?? ""
            return "\(id) created   \(info.method) \(info.url)\(name)"
        case .test(let result):
            return "\(id) test      " + (result.passed ? "✓ " : "✗ ") + clean(result.name) + (result.message.map { ": " + clean($0) } ?? "")
        case .scriptLog(let log):
            return "\(id) \(log.level == .error ? "script ✗ " : "log       ")" + clean(log.text)
        case .message(let streamed):
            // `#3 message   12 update id=7 (42 B): {"a":1}`: the data on one line, its first 200 characters.
            var text = "\(id) message   \(streamed.index)"
            if let name = streamed.event { text += " " + clean(name) }
            if let messageID = streamed.id { text += " id=" + clean(messageID) }
            text += " (\(ByteCount.format(Int64(streamed.size)))\(streamed.isWhole ? "" : ", cut")\(streamed.isComplete ? "" : ", incomplete")): "
            let flat = streamed.data.replacingEvery("\n", with: "⏎")
            return text + clean(String(flat.prefix(200))) + (flat.count > 200 ? "…" : "")
        case .resumed:
            return "\(id) resumed"
        case .suspended:
            return "\(id) suspended"
        case .requestSent(let head):
            // Appended in a loop: the stdlib's unspecialized `joined(separator:)` cost a one-request run 0.15 ms at its first use.
            var names = ""
            for (index, header) in head.headers.enumerated() { names += (index == 0 ? "" : ", ") + clean(header.name) }
            return "\(id) sent      \(clean(head.method)) \(clean(head.url.absoluteString)) \(clean(head.httpVersion)) (\(names))"
        case .redirected(let hop):
            return "\(id) redirect  \(hop.status) → \(clean(hop.to.absoluteString))"
        case .response(let head):
            return "\(id) response  \(statusText(head))"
        case .progress(let progress):
            guard event.time - (tasks[event.task]?.lastProgress ?? -.infinity) >= progressInterval else { return nil }
            tasks[event.task, default: TaskInfo()].lastProgress = event.time
            var text = "\(id) progress  \(progress.direction == .upload ? "↑ " : "")\(ByteCount.format(progress.completed))"
            if progress.total > 0 {
                text += " / \(ByteCount.format(progress.total))"
                if let fraction = progress.fraction { text += " (\(Int(fraction * 100))%)" }
            }
            return text
        case .completed(let completion):
            let info = tasks.removeValue(forKey: event.task) ?? TaskInfo()
            var text = "\(id) \(info.method) \(info.url) → \(statusText(completion.response)) \(ByteCount.format(completion.bytes))"
            if completion.timings.total >= 0 { text += " \(Milliseconds.format(completion.timings.total))" }
            if !completion.redirects.isEmpty { text += " (\(completion.redirects.count) redirects)" }
            return text
        case .failed(let failure):
            let info = tasks.removeValue(forKey: event.task) ?? TaskInfo()
            var text = "\(id) \(info.method) \(info.url) ✗ \(failure.error.code.rawValue): \(clean(failure.error.message))"
            if let status = failure.response?.status { text += " (HTTP \(status))" }
            return text
        case .cancelled(let failure):
            // Without a payload nothing went out: a task held ahead of its turn when the run was interrupted.
            let info = tasks.removeValue(forKey: event.task) ?? TaskInfo()
            return "\(id) \(info.method) \(info.url) cancelled" + (failure == nil ? " before it was sent" : "")
        }
    }

    /// The line for a request that was never sent (its dependency failed).
    package static func line(forNotSent result: RunResult) -> String {
        guard case .notSent(let reason) = result.status else { return "" }
        return "-- \(Sanitizer.singleLine(result.method)) \(Sanitizer.singleLine(result.url)) ✗ not sent: "
            + Sanitizer.singleLine(reason)
    }

    private func statusText(_ head: HTTPResponseHead) -> String {
        head.reason.isEmpty ? "\(head.status)" : "\(head.status) \(clean(head.reason))"
    }

    private func clean(_ text: String) -> String { Sanitizer.singleLine(text) }
}
