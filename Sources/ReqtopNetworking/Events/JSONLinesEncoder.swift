import Foundation

/// Encodes events as JSON Lines — one object per line, a stable schema shared by the headless
/// `--events jsonl` output and event streams:
///
/// every line: `event`, `task` (integer), `time` (seconds since the epoch);
/// created: `method`, `url`, optional `name`; redirected: `status`, `from`, `to`;
/// response: `status`, `headers` (object); progress: `direction`, `completed`, `total` (−1 unknown);
/// completed: `status`, `bytes`, `timings` {dns, connect, tls, send, wait, receive, total} in ms (−1 n/a);
/// failed: `error` {`code`, `message`}.
public enum JSONLinesEncoder {
    /// One event as one line of JSON, without the trailing newline.
    public static func line(for event: TaskEvent) -> String {
        var object: [String: Any] = [
            "event": event.name.rawValue,
            "task": event.task.rawValue,
            "time": event.time,
        ]
        switch event.kind {
        case .created(let description):
            object["method"] = description.method
            object["url"] = description.url.absoluteString
            if let name = description.name { object["name"] = name }
        case .resumed, .suspended, .cancelled:
            break
        case .redirected(let hop):
            object["status"] = hop.status
            object["from"] = hop.from.absoluteString
            object["to"] = hop.to.absoluteString
        case .response(let head):
            object["status"] = head.status
            object["headers"] = headerObject(head.headers)
        case .progress(let progress):
            object["direction"] = progress.direction.rawValue
            object["completed"] = progress.completed
            object["total"] = progress.total
        case .completed(let completion):
            object["status"] = completion.response.status
            object["bytes"] = completion.bytes
            object["timings"] = timingsObject(completion.timings)
        case .failed(let failure):
            object["error"] = ["code": failure.error.code.rawValue, "message": failure.error.message]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Repeated header names are joined with ", " as HTTP allows.
    static func headerObject(_ headers: [HTTPHeader]) -> [String: String] {
        var object: [String: String] = [:]
        for header in headers {
            if let existing = object[header.name] { object[header.name] = existing + ", " + header.value }
            else { object[header.name] = header.value }
        }
        return object
    }

    static func timingsObject(_ t: PhaseTimings) -> [String: Double] {
        func round(_ value: Double) -> Double { value < 0 ? -1 : (value * 1000).rounded() / 1000 }
        return ["dns": round(t.dns), "connect": round(t.connect), "tls": round(t.tls), "send": round(t.send),
                "wait": round(t.wait), "receive": round(t.receive), "total": round(t.total)]
    }
}
