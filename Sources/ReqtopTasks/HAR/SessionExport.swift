import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists

/// Turns what the inspector recorded into the request-list formats.
package enum SessionExport {
    /// HAR entries for every task that ended with a response (completed, or failed or cancelled
    /// after the response head arrived, marked so in the entry's `comment`); unfinished tasks and
    /// tasks that never got a response are left out.
    ///
    /// Each request that went on the wire is an entry of its own — a redirect hop too, with its 3xx
    /// response, `redirectURL` and Set-Cookie fields — as browsers export redirects, so every HAR
    /// viewer shows the chain without extensions. Request headers and `headersSize` are those of the
    /// head as sent (the headers the client added included).
    package static func harEntries(from records: [TaskRecord]) -> [HARExportEntry] {
        records.flatMap { record -> [HARExportEntry] in
            guard let final = record.response, record.state.isTerminal else { return [] }
            var start = record.startedAt ?? record.createdAt
            let exchanges = record.exchanges
            guard !exchanges.isEmpty else { return [entry(record, head: nil, response: final, timings: record.timings, start: start)] }
            return exchanges.compactMap { exchange in
                guard let response = exchange.response else { return nil }
                let hop = exchange.request.hop
                let isRedirect = hop < record.redirects.count
                let timings = isRedirect ? record.redirects[hop].timings : record.timings?.lastExchange
                defer { start += max(0, timings?.total ?? 0) / 1000 }
                return entry(record, head: exchange.request, response: response, timings: timings, start: start,
                             isFinal: !isRedirect)
            }
        }
    }

    private static func entry(_ record: TaskRecord, head: RequestHead?, response: HTTPResponseHead, timings: PhaseTimings?,
                              start: Double, isFinal: Bool = true) -> HARExportEntry {
        let t = timings ?? .unknown
        // The body went with a hop whose head announced one (a 303 turns the next hop into a GET without it).
        let sentBody = head.map { $0.headers.contains(name: "Content-Length") || $0.headers.contains(name: "Transfer-Encoding") } ?? true
        let requestBody: Data? = sentBody ? record.request.body.data : nil
        // Every body the session still has goes in, however large (binary as base64); one it no longer
        // has is named in the entry's comment.
        var responseBody: Data?
        var comment: String?
        if isFinal, let body = record.body {
            do { responseBody = try body.loadData() } catch { comment = "response body not included: it could not be read (\(error.readableDescription))" }
        } else if isFinal, record.bodyReleased {
            comment = omittedBodyComment
        }
        if isFinal, let body = record.body, responseBody != nil, record.downloaded > body.count, endedEarly(record) == nil {
            comment = "response body truncated: the first \(body.count) of \(record.downloaded) bytes (the rest passed through the proxy unkept)"
        }
        if isFinal, let ended = endedEarly(record) {
            comment = "the task \(ended) after the response head and \(record.downloaded) body bytes: the response is incomplete"
                + (record.body == nil ? "" : "; the body here is what arrived")
        }
        if let sent = record.streamedBodyBytes, let kept = requestBody, Int64(kept.count) < sent {
            comment = (comment.map { $0 + "; " } ?? "")
                + "request body truncated: the first \(kept.count) of \(sent) bytes (the rest streamed through the proxy unkept)"
        }
        var entry = HARExportEntry(
            startedDateTime: Date(timeIntervalSince1970: start),
            request: .init(method: head?.method ?? record.method, url: (head?.url ?? record.url).absoluteString,
                           httpVersion: head?.httpVersion ?? "HTTP/\(response.httpVersion)",
                           headers: head?.headers ?? record.request.headers, body: requestBody, headersSize: head?.size ?? -1),
            response: .init(status: response.status, statusText: response.reason, httpVersion: "HTTP/\(response.httpVersion)",
                            headers: response.headers, bodySize: isFinal ? Int(record.downloaded) : 0,
                            mimeType: response.mimeType ?? "", body: responseBody, headersSize: response.size),
            timings: harTimings(t), time: t.total >= 0 ? t.total : nil, comment: comment,
            error: isFinal && endedEarly(record) != nil ? record.error.map { "\($0.code.rawValue): \($0.message)" } ?? endedEarly(record) : nil)
        if isFinal { entry.tests = record.tests } // the scripts checked the final response
        if isFinal, let connection = record.connection { // (known for the last exchange only)
            entry.connection = String(connection.localPort)
            entry.serverIPAddress = connection.remoteAddress
        }
        if isFinal, let log = record.messages {
            entry.streamMessages = log.entries.map { HARExportEntry.TimedStreamMessage(time: $0.time, message: $0.message) }
            if log.released > 0 {
                entry.comment = (entry.comment.map { $0 + "; " } ?? "")
                    + "_streamMessages starts at message \(log.released + 1) of \(log.count): the first \(log.released) were let go to keep memory bounded (the journal has them)"
            }
        }
        return entry
    }

    /// HAR timings from the core's phase timings: `connect` includes `ssl`, as HAR 1.2 says;
    /// −1 for phases that did not happen, 0 at least for the required send, wait and receive.
    package static func harTimings(_ t: PhaseTimings) -> HARTimings {
        func phase(_ value: Double) -> Double { value < 0 ? -1 : value }
        var connect = phase(t.connect)
        if connect >= 0, t.tls > 0 { connect += t.tls }
        return HARTimings(blocked: -1, dns: phase(t.dns), connect: connect, ssl: phase(t.tls),
                          send: max(0, t.send), wait: max(0, t.wait), receive: max(0, t.receive))
    }

    /// How a task that did not complete ended ("failed (timedOut)", "was cancelled"), nil when it completed.
    private static func endedEarly(_ record: TaskRecord) -> String? {
        switch record.state {
        case .failed: "failed (\(record.error?.code.rawValue ?? "error"))"
        case .cancelled: "was cancelled"
        default: nil
        }
    }

    /// The comment of an entry whose body the session no longer holds.
    package static let omittedBodyComment = "response body not included: reqtop released it during the session to keep memory within its body budget (the oldest in-memory bodies go first)"

    /// What `writeHAR` wrote.
    package struct HARSaveSummary: Sendable {
        /// Tasks written (a task with redirects has an entry per hop).
        package var tasks: Int
        /// Final responses whose body was no longer held (each entry says so in its `comment`).
        package var omittedBodies: Int
    }

    /// Writes the session as HAR 1.2, streaming: one task's entries (and body) in memory at a time.
    /// `records` is read twice (secrets first); a store's `StoredRecords` reads them back as it goes.
    /// `progress` is told how many records are done every `progressInterval` records.
    @discardableResult
    /// The secret values a task's exchanges carry — in the request as given, every head as sent, every
    /// redirect's response (a cookie set by a 302) and the final response — to be hidden in every entry.
    package static func secretValues(of record: TaskRecord) -> [String] {
        let headers = record.request.headers + record.sentHeads.flatMap(\.headers)
            + record.redirects.flatMap(\.response.headers) + (record.response?.headers ?? [])
        return Redaction.secretValues(headers: headers, url: record.url.absoluteString, body: record.request.body.data)
    }

    @discardableResult
    package static func writeHAR(_ records: some Sequence<TaskRecord>, to path: String, secrets: SecretPolicy, progressInterval: Int = 1000,
                                 progress: (Int) -> Void = { _ in }) throws -> HARSaveSummary {
        // A secret of one exchange is hidden in every other entry too: its values are known first.
        for record in records { secrets.register(secretValues(of: record)) }
        let writer = try HARStreamWriter(path: path, creator: (name: "reqtop", version: ReqtopVersion.string), secrets: secrets)
        var summary = HARSaveSummary(tasks: 0, omittedBodies: 0)
        do {
            for (index, record) in records.enumerated() {
                let entries = harEntries(from: [record])
                try writer.append(entries)
                if record.response != nil && record.state.isTerminal { summary.tasks += 1 }
                summary.omittedBodies += entries.count { $0.comment == omittedBodyComment }
                if (index + 1) % progressInterval == 0 { progress(index + 1) }
            }
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
        return summary
    }
}
