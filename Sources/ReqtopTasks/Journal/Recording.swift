import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// A saved session read back for `reqtop open`: a journal (every event as it happened) or a HAR
/// file (each entry becomes a finished task with its request, response, body and timings).
package struct Recording: Sendable {
    /// The events to replay into a `TaskStore`, in order.
    package var events: [TaskEvent]
    /// What the inspector's title says.
    package var title: String
    /// Said to the user when the session opens (lines skipped, tasks that never ended).
    package var notes: [String]

    /// Reads a journal or a HAR file (by content).
    package static func load(_ url: URL) throws -> Recording {
        let data = try Data(contentsOf: url)
        if Journals.isJournal(data) { return try journal(url) }
        return try har(data, name: url.lastPathComponent)
    }

    private static func journal(_ url: URL) throws -> Recording {
        let contents = try Journals.read(url)
        var events = contents.events
        var notes: [String] = []
        if contents.skippedLines > 0 { notes.append("\(contents.skippedLines) unreadable line\(contents.skippedLines == 1 ? "" : "s") skipped (a write cut short?)") }
        // Tasks the journal never saw end (the process was killed, or quit mid-transfer) are marked so.
        var open: [TaskID: Double] = [:]
        for event in events {
            if case .created = event.kind { open[event.task] = event.time }
            if event.isTerminal { open[event.task] = nil }
        }
        let end = events.last?.time ?? 0
        for id in open.keys.sorted() {
            events.append(TaskEvent(task: id, time: end, kind: .failed(TaskFailure(
                error: TransferError(code: .other, message: "unfinished: the session ended before this task did (the journal stops here)"),
                response: nil, bytes: 0, timings: nil, redirects: []))))
        }
        if !open.isEmpty { notes.append("\(open.count) task\(open.count == 1 ? "" : "s") had not ended when the journal stopped") }
        let info = contents.info
        let title = info.map { "\($0.source) (session \($0.id), read-only)" } ?? "\(url.lastPathComponent) (read-only)"
        return Recording(events: events, title: title, notes: notes)
    }

    /// HAR 1.2: each entry a task, started at its `startedDateTime`.
    static func har(_ data: Data, name: String) throws -> Recording {
        let parsed: JSONValue
        // A byte order mark (Windows tools write one) is not part of the document.
        let document = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        do { parsed = try JSONValue(parsing: Data(document)) } catch {
            throw CocoaError(.fileReadCorruptFile, userInfo: ["NSLocalizedDescription": "\(name) is neither a reqtop journal nor a HAR file (\(error))"])
        }
        guard let root = Self.tree(parsed) as? [String: Any],
              let log = root["log"] as? [String: Any], let entries = log["entries"] as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: ["NSLocalizedDescription": "\(name) is neither a reqtop journal nor a HAR file (no log.entries)"])
        }
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true), isoWhole = Date.ISO8601FormatStyle()
        var events: [TaskEvent] = []
        var skipped = 0
        for (index, entry) in entries.enumerated() {
            guard let request = entry["request"] as? [String: Any], let urlText = request["url"] as? String,
                  let url = HTTPURL(string: urlText) else { skipped += 1; continue }
            let id = TaskID(rawValue: index + 1)
            let startText = entry["startedDateTime"] as? String ?? ""
            let start = ((try? iso.parse(startText)) ?? (try? isoWhole.parse(startText)))?.timeIntervalSince1970 ?? 0
            let method = request["method"] as? String ?? "GET"
            let headers = Self.headers(request["headers"])
            let postData = request["postData"] as? [String: Any]
            let body: HTTPRequest.Body = (postData?["text"] as? String).map { .data(Data($0.utf8)) } ?? .none
            let http = HTTPRequest(method: method, url: url, headers: headers, body: body)
            events.append(TaskEvent(task: id, time: start, kind: .created(TaskDescription(kind: .data, request: http))))
            events.append(TaskEvent(task: id, time: start, kind: .resumed))
            let version = Self.version(request["httpVersion"])
            events.append(TaskEvent(task: id, time: start, kind: .requestSent(RequestHead(
                url: url, method: method, target: url.requestTarget, httpVersion: "HTTP/" + version, headers: headers,
                size: request["headersSize"] as? Int ?? -1))))
            let t = Self.timings(entry)
            let end = start + max(0, t.total) / 1000
            guard let response = entry["response"] as? [String: Any], let status = response["status"] as? Int, status > 0 else {
                events.append(TaskEvent(task: id, time: end, kind: .failed(TaskFailure(
                    error: TransferError(code: .other, message: "the HAR records no response (status 0: blocked, cancelled or failed in the browser)"),
                    response: nil, bytes: 0, timings: t, redirects: []))))
                continue
            }
            let head = HTTPResponseHead(url: url, httpVersion: Self.version(response["httpVersion"]), status: status,
                                        reason: response["statusText"] as? String ?? "", headers: Self.headers(response["headers"]),
                                        size: response["headersSize"] as? Int ?? -1)
            events.append(TaskEvent(task: id, time: start + max(0, t.total - max(0, t.receive)) / 1000, kind: .response(head)))
            let content = response["content"] as? [String: Any]
            var bodyData: Data?
            if let text = content?["text"] as? String {
                bodyData = (content?["encoding"] as? String) == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
            }
            let bytes = Int64(bodyData?.count ?? max(0, content?["size"] as? Int ?? 0))
            let messages = Self.messages(of: entry, at: end)
            events += messages.map { TaskEvent(task: id, time: $0.time, kind: .message($0.message)) }
            let finished = max(end, messages.last?.time ?? end)
            events.append(TaskEvent(task: id, time: finished, kind: .completed(TaskCompletion(
                response: head, body: bodyData.map { .data($0) }, bytes: bytes, timings: t, redirects: [], serializer: "har",
                serializedValue: nil, serializationError: nil))))
        }
        var notes: [String] = []
        if skipped > 0 { notes.append("\(skipped) entr\(skipped == 1 ? "y" : "ies") without a usable request URL skipped") }
        return Recording(events: events, title: "\(name) (HAR, read-only)", notes: notes)
    }

    /// A parsed document as nested `[String: Any]`, `[Any]`, `String`, `Bool`, `Int` (a number
    /// written as an integer), `Double` (any other number), and `JSONNull`.
    private static func tree(_ value: JSONValue) -> Any {
        switch value {
        case .null: JSONNull()
        case .bool(let b): b
        case .number(let text): if let whole = Int(text) { whole } else { Double(text) ?? 0 }
        case .string(let s): s
        case .array(let items): items.map(tree)
        case .object(let members): Dictionary(members.map { ($0.key, tree($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private struct JSONNull {}

    /// The messages an entry kept: Chrome's `_webSocketMessages` (`type`, `time`, `opcode`, `data`) or
    /// reqtop's `_streamMessages` (the same, plus the stream's `format`, `event`, `id`…), in order.
    private static func messages(of entry: [String: Any], at end: Double) -> [(time: Double, message: StreamMessage)] {
        let isWebSocket = entry["_webSocketMessages"] != nil
        let list = (entry["_webSocketMessages"] ?? entry["_streamMessages"]) as? [[String: Any]] ?? []
        return list.enumerated().map { offset, item in
            let data = item["data"] as? String ?? ""
            let index = item["index"] as? Int ?? offset + 1
            let format = isWebSocket ? .websocket : StreamMessage.Format(rawValue: item["format"] as? String ?? "") ?? .sse
            var message: StreamMessage
            if format == .websocket {
                let opcode = item["opcode"] as? Int ?? 1
                let size = item["size"] as? Int ?? (opcode == 1 || opcode == 8 ? data.utf8.count : Data(base64Encoded: data)?.count ?? 0)
                message = StreamMessage(format: .websocket, index: index, data: data, size: size, isWhole: item["partial"] as? Bool != true)
                message.direction = (item["type"] as? String) == "send" ? .send : .receive
                message.opcode = opcode
                message.closeCode = item["closeCode"] as? Int
            } else {
                message = StreamMessage(format: format, index: index, event: item["event"] as? String, id: item["id"] as? String,
                                        retry: item["retry"] as? Int, data: data, size: item["size"] as? Int ?? data.utf8.count,
                                        isWhole: item["partial"] as? Bool != true, isComplete: item["incomplete"] as? Bool != true)
            }
            return ((item["time"] as? Double) ?? (item["time"] as? Int).map(Double.init) ?? end, message)
        }
    }

    private static func headers(_ value: Any?) -> [HTTPHeader] {
        (value as? [[String: Any]] ?? []).compactMap { field in
            guard let name = field["name"] as? String else { return nil }
            return HTTPHeader(name: name, value: field["value"] as? String ?? "")
        }
    }

    /// "HTTP/1.1" → "1.1"; "h2"/"http/2.0" → "2".
    private static func version(_ value: Any?) -> String {
        let text = (value as? String ?? "").lowercased()
        if text.hasPrefix("http/") { return String(text.dropFirst(5)) == "2.0" ? "2" : String(text.dropFirst(5)) }
        if text == "h2" { return "2" }
        if text == "h3" { return "3" }
        return text.isEmpty ? "1.1" : text
    }

    /// HAR timings as phase timings: HAR's `connect` includes `ssl`, reqtop's does not.
    private static func timings(_ entry: [String: Any]) -> PhaseTimings {
        let t = entry["timings"] as? [String: Any] ?? [:]
        func phase(_ key: String) -> Double { (t[key] as? Double) ?? Double(t[key] as? Int ?? -1) }
        let ssl = phase("ssl")
        var connect = phase("connect")
        if connect >= 0, ssl > 0 { connect = max(0, connect - ssl) }
        let total = (entry["time"] as? Double) ?? Double(entry["time"] as? Int ?? -1)
        return PhaseTimings(dns: phase("dns"), connect: connect, tls: ssl, send: phase("send"), wait: phase("wait"),
                            receive: phase("receive"), total: total)
    }
}
