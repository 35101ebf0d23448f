import Foundation
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopSync

/// Records the session as HAR: a bus observer that builds one `HARExportEntry` per completed task
/// from its `created` (method, URL, headers, body, start time), `response` and `completed` events,
/// and writes a HAR 1.2 file on demand (`--har PATH`, at the end of a run and on SIGINT/SIGTERM).
///
/// Failed and cancelled tasks have no response and are left out.
public final class HARRecorder: Sendable {
    /// Response bodies up to this size (in memory) are embedded in the HAR.
    public let maxEmbeddedBodyBytes: Int
    private let bus: EventBus
    private let queue = DispatchQueue(label: "reqtop.har.recorder")
    private let state = Protected(State())
    private let subscription = Protected<EventBus.Subscription?>(nil)

    private struct Started {
        var description: TaskDescription
        var time: Double
    }

    private struct State {
        var started: [TaskID: Started] = [:]
        var finished: [TaskID: HARExportEntry] = [:]
    }

    public init(bus: EventBus, maxEmbeddedBodyBytes: Int = 1 << 20) {
        self.bus = bus
        self.maxEmbeddedBodyBytes = maxEmbeddedBodyBytes
    }

    /// Starts recording the bus's events.
    public func start() {
        let sub = bus.subscribeBatches(queue: queue) { [self] events in self.record(events) }
        subscription.withLock { $0 = sub }
    }

    /// Records every event posted so far, then stops.
    public func stop() {
        queue.sync {}
        if let sub = subscription.withLock({ $0 }) { bus.unsubscribe(sub) }
    }

    /// The entries of every task completed so far (including events posted but not yet delivered), by task id.
    public var entries: [HARExportEntry] {
        queue.sync {}
        return state.withLock { state in state.finished.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// The session as a HAR 1.2 document.
    public func data() throws -> Data {
        try HARWriter.data(entries: entries, creator: (name: "reqtop", version: ReqtopVersion.string))
    }

    /// Writes the session as a HAR 1.2 file at `url` (atomically).
    public func write(to url: URL) throws {
        try data().write(to: url, options: .atomic)
    }

    private func record(_ events: [TaskEvent]) {
        state.withLock { state in
            for event in events {
                switch event.kind {
                case .created(let description):
                    state.started[event.task] = Started(description: description, time: event.time)
                case .completed(let completion):
                    guard let started = state.started.removeValue(forKey: event.task) else { continue }
                    state.finished[event.task] = entry(started, completion)
                case .failed, .cancelled:
                    state.started[event.task] = nil
                default:
                    break
                }
            }
        }
    }

    private func entry(_ started: Started, _ completion: TaskCompletion) -> HARExportEntry {
        let description = started.description
        let head = completion.response
        let request = HARExportEntry.Request(
            method: description.method, url: description.url.absoluteString, httpVersion: Self.httpVersion(head.httpVersion),
            headers: description.headers.map { HeaderField(name: $0.name, value: $0.value) }, body: description.body)
        var body: Data?
        if case .data(let data)? = completion.body, data.count <= maxEmbeddedBodyBytes { body = data }
        let response = HARExportEntry.Response(
            status: head.status, statusText: head.reason, httpVersion: Self.httpVersion(head.httpVersion),
            headers: head.headers.map { HeaderField(name: $0.name, value: $0.value) }, bodySize: Int(completion.bytes),
            mimeType: head.headers.value(for: "Content-Type") ?? "x-unknown", body: body)
        let timings = Self.harTimings(completion.timings)
        return HARExportEntry(startedDateTime: Date(timeIntervalSince1970: started.time), request: request,
                              response: response, timings: timings,
                              time: completion.timings.total >= 0 ? completion.timings.total : timings.total)
    }

    /// HAR timings from the core's phase timings: `connect` includes `ssl`, as HAR 1.2 says.
    public static func harTimings(_ t: PhaseTimings) -> HARTimings {
        func phase(_ value: Double) -> Double { value < 0 ? -1 : value }
        func required(_ value: Double) -> Double { max(0, value) }
        var connect = phase(t.connect)
        if connect >= 0, t.tls > 0 { connect += t.tls }
        return HARTimings(blocked: -1, dns: phase(t.dns), connect: connect, ssl: phase(t.tls),
                          send: required(t.send), wait: required(t.wait), receive: required(t.receive))
    }

    private static func httpVersion(_ version: String) -> String {
        version.uppercased().hasPrefix("HTTP/") ? version : "HTTP/\(version.isEmpty ? "1.1" : version)"
    }
}
