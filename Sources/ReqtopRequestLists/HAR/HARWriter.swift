import Foundation

/// Writes HAR 1.2 archives.
public enum HARWriter {
    /// A HAR of finished tasks.
    public static func data(entries: [HARExportEntry], creator: (name: String, version: String)) throws -> Data {
        try encode(entries.map(model(of:)), creator: creator)
    }

    /// A HAR of specs that were never sent (for `reqtop convert --to har`): templates are written
    /// as they are, form bodies as `params`, and each response is empty with status 0.
    public static func data(specs: [RequestSpec], creator: (name: String, version: String), date: Date = Date()) throws -> Data {
        try encode(specs.map { model(of: $0, date: date) }, creator: creator)
    }

    static func encode(_ entries: [HAREntry], creator: (name: String, version: String)) throws -> Data {
        let document = HARDocument(log: HARLog(version: "1.2", creator: HARCreator(name: creator.name, version: creator.version),
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

    static func nameValues(_ headers: [HeaderField]) -> [HARNameValue] {
        headers.map { HARNameValue(name: $0.name, value: $0.value) }
    }

    static func queryString(of url: String) -> [HARNameValue] {
        guard let items = URLComponents(string: url)?.queryItems else { return [] }
        return items.map { HARNameValue(name: $0.name, value: $0.value ?? "") }
    }

    static func contentType(_ headers: [HeaderField], default fallback: String) -> String {
        headers.value(named: "Content-Type") ?? fallback
    }

    static func model(of entry: HARExportEntry) -> HAREntry {
        let req = entry.request
        var postData: HARPostData?
        if let body = req.body {
            postData = HARPostData(mimeType: contentType(req.headers, default: "application/octet-stream"),
                                   text: String(decoding: body, as: UTF8.self), params: nil)
        }
        let request = HARRequest(
            method: req.method, url: req.url, httpVersion: req.httpVersion, cookies: [], headers: nameValues(req.headers),
            queryString: queryString(of: req.url), postData: postData, headersSize: -1, bodySize: req.body?.count ?? 0)
        let res = entry.response
        var content = HARContent(size: res.bodySize, mimeType: res.mimeType, text: nil, encoding: nil)
        if let body = res.body {
            if let text = String(data: body, encoding: .utf8) {
                content.text = text
            } else {
                content.text = body.base64EncodedString()
                content.encoding = "base64"
            }
        }
        let location = res.headers.value(named: "Location") ?? ""
        let response = HARResponse(
            status: res.status, statusText: res.statusText, httpVersion: res.httpVersion, cookies: [],
            headers: nameValues(res.headers), content: content, redirectURL: location, headersSize: -1, bodySize: res.bodySize)
        let t = entry.timings
        let timings = HARTimingsModel(blocked: t.blocked, dns: t.dns, connect: t.connect, ssl: t.ssl,
                                      send: t.send, wait: t.wait, receive: t.receive)
        return HAREntry(startedDateTime: isoDate(entry.startedDateTime), time: entry.time, request: request, response: response,
                        cache: HARCache(), timings: timings, serverIPAddress: entry.serverIPAddress)
    }

    static func model(of spec: RequestSpec, date: Date) -> HAREntry {
        var postData: HARPostData?
        var bodySize = 0
        switch spec.body {
        case nil: break
        case let .text(text):
            postData = HARPostData(mimeType: contentType(spec.headers, default: "text/plain"), text: text, params: nil)
            bodySize = text.utf8.count
        case let .file(path, directory):
            let full = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
            let data = FileManager.default.contents(atPath: full) ?? Data()
            postData = HARPostData(mimeType: contentType(spec.headers, default: "application/octet-stream"),
                                   text: String(decoding: data, as: UTF8.self), params: nil)
            bodySize = data.count
        case let .form(fields):
            postData = HARPostData(mimeType: contentType(spec.headers, default: "application/x-www-form-urlencoded"), text: nil,
                                   params: fields.map { HARParam(name: $0.name, value: $0.value) })
            bodySize = FormEncoding.encode(fields).utf8.count
        }
        let request = HARRequest(
            method: spec.method, url: spec.url, httpVersion: "HTTP/1.1", cookies: [], headers: nameValues(spec.headers),
            queryString: queryString(of: spec.url), postData: postData, headersSize: -1, bodySize: bodySize)
        let response = HARResponse(status: 0, statusText: "", httpVersion: "", cookies: [], headers: [],
                                   content: HARContent(size: 0, mimeType: "x-unknown", text: nil, encoding: nil),
                                   redirectURL: "", headersSize: -1, bodySize: -1)
        return HAREntry(startedDateTime: isoDate(date), time: 0, request: request, response: response, cache: HARCache(),
                        timings: HARTimingsModel(blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0),
                        serverIPAddress: nil)
    }
}
