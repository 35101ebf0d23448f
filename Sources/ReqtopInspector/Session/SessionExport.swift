import Foundation
import ReqtopNetworking
import ReqtopRequestLists

/// Turns what the inspector recorded into the request-list formats: HAR entries, specs for curl and `.http`.
public enum SessionExport {
    /// HAR entries for every task that finished with a response: completed, or failed after the
    /// response arrived. Cancelled and unfinished tasks are left out.
    public static func harEntries(from records: [TaskRecord]) -> [HARExportEntry] {
        records.compactMap { record in
            guard let head = record.response, record.state == .completed || record.state == .failed else { return nil }
            let t = record.timings ?? .unknown
            let timings = harTimings(t)
            let body: Data? = record.body.flatMap { $0.count <= 1 << 20 ? try? $0.loadData() : nil }
            return HARExportEntry(
                startedDateTime: Date(timeIntervalSince1970: record.startedAt ?? record.createdAt),
                request: .init(method: record.method, url: record.url.absoluteString, httpVersion: "HTTP/\(head.httpVersion)",
                               headers: record.requestHeaders.map { HeaderField(name: $0.name, value: $0.value) },
                               body: record.requestBody),
                response: .init(status: head.status, statusText: head.reason, httpVersion: "HTTP/\(head.httpVersion)",
                                headers: head.headers.map { HeaderField(name: $0.name, value: $0.value) },
                                bodySize: Int(record.downloaded), mimeType: head.mimeType ?? "", body: body),
                timings: timings, time: t.total >= 0 ? t.total : nil)
        }
    }

    /// HAR timings from the core's phase timings: `connect` includes `ssl`, as HAR 1.2 says;
    /// −1 for phases that did not happen, 0 at least for the required send, wait and receive.
    public static func harTimings(_ t: PhaseTimings) -> HARTimings {
        func phase(_ value: Double) -> Double { value < 0 ? -1 : value }
        var connect = phase(t.connect)
        if connect >= 0, t.tls > 0 { connect += t.tls }
        return HARTimings(blocked: -1, dns: phase(t.dns), connect: connect, ssl: phase(t.tls),
                          send: max(0, t.send), wait: max(0, t.wait), receive: max(0, t.receive))
    }

    /// Writes the session as HAR 1.2; returns how many entries were written.
    @discardableResult
    public static func writeHAR(_ records: [TaskRecord], to path: String) throws -> Int {
        let entries = harEntries(from: records)
        let data = try HARWriter.data(entries: entries, creator: (name: "reqtop", version: ReqtopVersion.string))
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return entries.count
    }

    /// The request of a task as a request-list spec (for curl and `.http` export).
    public static func spec(for record: TaskRecord) -> RequestSpec {
        let body: RequestBody? = record.requestBody.map { .text(String(decoding: $0, as: UTF8.self)) }
        let options = RequestOptions(followRedirects: record.options.followRedirects, insecure: record.options.insecure,
                                     timeout: record.options.timeout)
        return RequestSpec(name: record.name, method: record.method, url: record.url.absoluteString,
                           headers: record.requestHeaders.map { HeaderField(name: $0.name, value: $0.value) }, body: body,
                           options: options)
    }
}

/// reqtop's version, as `--version` and HAR's creator show it.
public enum ReqtopVersion {
    public static let string = "0.1.0"
}
