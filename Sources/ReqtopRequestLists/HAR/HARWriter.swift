import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes HAR 1.2 archives.
public enum HARWriter {
    /// A HAR of finished exchanges (one entry per request sent: a redirect hop is an entry of its own).
    /// Secrets are hidden by `redaction` (nil: in clear, `--include-secrets`).
    public static func data(entries: [HARExportEntry], creator: (name: String, version: String), redaction: Redaction?) throws -> Data {
        return try encode(entries.map { model(of: redaction.map($0.redacted) ?? $0) }, creator: creator)
    }

    /// A HAR of requests that were never sent (`reqtop convert --to har`): each response is empty
    /// with status 0.
    public static func data(requests: [HTTPRequest], creator: (name: String, version: String), date: Date = Date(),
                            redaction: Redaction?) throws -> Data {
        return try encode(requests.map { request in
            let entry = HARExportEntry(unsent: request, at: date)
            return model(of: redaction.map(entry.redacted) ?? entry)
        }, creator: creator)
    }

    static func encode(_ entries: [HAR.Entry], creator: (name: String, version: String)) throws -> Data {
        let document = HAR.Document(log: HAR.Log(version: "1.2", creator: HAR.Creator(name: creator.name, version: creator.version),
                                               entries: entries))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// One format style (a Sendable value) for every entry, instead of a formatter object per entry.
    private static let isoStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func isoDate(_ date: Date) -> String {
        date.formatted(isoStyle)
    }

    /// The query's `name=value` pairs, percent-decoded, in order (for HAR's `queryString`).
    static func queryString(of url: String) -> [HTTPHeader] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String { String(text).percentDecoded() ?? String(text) }
            return HTTPHeader(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func postData(_ body: Data, headers: [HTTPHeader]) -> HAR.PostData {
        let mimeType = headers.value(for: "Content-Type") ?? ""
        if let text = String(data: body, encoding: .utf8) {
            return HAR.PostData(mimeType: mimeType, text: text, params: nil)
        }
        return HAR.PostData(mimeType: mimeType, text: body.base64EncodedString(), params: nil, _encoding: "base64")
    }

    static func model(of entry: HARExportEntry) -> HAR.Entry {
        let req = entry.request
        let request = HAR.Request(
            method: req.method, url: req.url, httpVersion: req.httpVersion, cookies: HARCookies.sent(in: req.headers), headers: req.headers,
            queryString: queryString(of: req.url), postData: req.body.map { postData($0, headers: req.headers) },
            headersSize: req.headersSize, bodySize: req.body?.count ?? 0)
        let res = entry.response
        var content = HAR.Content(size: res.bodySize, mimeType: res.mimeType, text: nil, encoding: nil)
        if let body = res.body {
            if let text = String(data: body, encoding: .utf8) {
                content.text = text
            } else {
                content.text = body.base64EncodedString()
                content.encoding = "base64"
            }
        }
        let location = res.headers.value(for: "Location") ?? ""
        let response = HAR.Response(
            status: res.status, statusText: res.statusText, httpVersion: res.httpVersion, cookies: HARCookies.set(by: res.headers),
            headers: res.headers, content: content, redirectURL: location, headersSize: res.headersSize, bodySize: res.bodySize)
        let t = entry.timings
        let timings = HAR.Timings(blocked: t.blocked, dns: t.dns, connect: t.connect, ssl: t.ssl,
                                      send: t.send, wait: t.wait, receive: t.receive)
        let isWebSocket = entry.streamMessages.first?.message.format == .websocket
        let messages = entry.streamMessages.map { timed in
            let m = timed.message
            return HAR.StreamMessage(type: m.direction == .send ? "send" : "receive", time: timed.time, opcode: m.opcode ?? 1, data: m.data,
                                     format: m.format.rawValue, index: m.index, size: m.size, event: m.event, id: m.id, retry: m.retry,
                                     closeCode: m.closeCode, partial: m.isWhole ? nil : true, incomplete: m.isComplete ? nil : true)
        }
        return HAR.Entry(startedDateTime: isoDate(entry.startedDateTime), time: entry.time, request: request, response: response,
                        cache: HAR.Cache(), timings: timings, serverIPAddress: entry.serverIPAddress, connection: entry.connection,
                        comment: entry.comment,
                        _error: entry.error,
                        _tests: entry.tests.isEmpty ? nil : entry.tests.map { HAR.Test(name: $0.name, passed: $0.passed, message: $0.message) },
                        _streamMessages: isWebSocket || entry.streamMessages.isEmpty ? nil : messages,
                        _webSocketMessages: isWebSocket ? messages : nil, _resourceType: isWebSocket ? "websocket" : nil)
    }
}
