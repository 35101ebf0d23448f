import Foundation
import ReqtopHTTPModel
import ReqtopInspector
import ReqtopNetworking
import ReqtopSync
import ReqtopTasks
import ReqtopTerminalUI

/// Issue 31's live stream: a server-sent event stream of `events` events over `seconds` posted on
/// a bus as the engine posts them, the detail view open on its Stream tab at 120×40 following the
/// tail, frames drawn as the event loop draws them. Measures event → frame showing it (p50, p95)
/// and frame time, and the RSS the events added.
struct StreamTabBench {
    let events: Int
    let seconds: Double

    func run() -> [BenchRow] {
        let store = TaskStore()
        let url = "http://127.0.0.1:9/sse"
        var head = HTTPResponseHead(url: HTTPURL(string: url)!, httpVersion: "1.1", status: 200, reason: "OK",
                                    headers: [HTTPHeader(name: "Content-Type", value: "text/event-stream")])
        head.size = 80
        let task = TaskID(rawValue: 1)
        let now = Date().timeIntervalSince1970
        store.apply([TaskEvent(task: task, time: now, kind: .created(TaskDescription(kind: .data, request: HTTPRequest(url: HTTPURL(string: url)!)))),
                     TaskEvent(task: task, time: now, kind: .resumed), TaskEvent(task: task, time: now, kind: .response(head))])
        let bus = EventBus()
        let dirty = DirtySignal()
        let subscription = bus.subscribeBatches(queue: DispatchQueue(label: "bench.stream.store")) { events in
            store.apply(events)
            dirty.mark()
        }
        let app = InspectorApp(store: store, actions: NoopActions(), title: "bench")
        let terminal = Terminal(backend: CountingBackend(width: 120, height: 40))
        terminal.draw { app.render(&$0) } // (the table selects its first row as it draws)
        _ = app.handle(.enter)
        _ = app.handle(.char("8"))
        terminal.draw { app.render(&$0) }
        let rssBefore = Double(ProcessMemory.residentBytes)

        // The feeder: one event at a time, evenly spread, each with its post time.
        let postTimes = Protected<[Double]>([])
        let done = DispatchSemaphore(value: 0)
        let interval = seconds / Double(events)
        Thread.detachNewThread {
            var next = Clock.now()
            for n in 1...events {
                let data = #"{"n":\#(n),"text":"event number \#(n) of the stream","ok":true}"#
                let message = StreamMessage(format: .sse, index: n, event: "tick", id: String(n), data: data, size: data.utf8.count)
                postTimes.withLock { $0.append(Clock.now()) }
                bus.post(TaskEvent(task: task, kind: .message(message)))
                next += interval
                let wait = next - Clock.now()
                if wait > 0 { usleep(UInt32(wait * 1e6)) }
            }
            done.signal()
        }
        var frameTimes: [Double] = [], latencies: [Double] = []
        var shown = 0
        var lastFrame = Clock.now()
        let deadline = Clock.now() + seconds + 5
        while shown < events, Clock.now() < deadline {
            guard dirty.wait(timeout: 0.1) else { continue }
            let sinceLast = Clock.now() - lastFrame
            if sinceLast < TUIBench.frameInterval { usleep(UInt32((TUIBench.frameInterval - sinceLast) * 1e6)) }
            var buffer: Buffer?
            let t0 = Clock.now()
            terminal.draw { frame in
                app.render(&frame)
                buffer = frame.buffer
            }
            let t1 = Clock.now()
            lastFrame = t1
            frameTimes.append(t1 - t0)
            // The newest event on screen: the last `+… s  #N` line.
            let newest = buffer?.lines.reversed().lazy.compactMap(Self.eventNumber).first ?? shown
            let posts = postTimes.withLock { $0 }
            while shown < min(newest, posts.count) {
                latencies.append(t1 - posts[shown])
                shown += 1
            }
        }
        done.wait()
        subscription.cancel()
        let rssAfter = Double(ProcessMemory.residentBytes)
        let p50 = Stats.median(latencies), p95 = Stats.percentile(latencies, 0.95)
        let frame50 = Stats.median(frameTimes), frame95 = Stats.percentile(frameTimes, 0.95)
        log("stream tab: \(events) events over \(seconds) s, \(shown) shown; event → screen p50 \(Figure.millis(p50)) p95 \(Figure.millis(p95)), "
            + "frame p50 \(Figure.millis(frame50)) p95 \(Figure.millis(frame95)), RSS +\(Figure.bytes(rssAfter - rssBefore))")
        return [
            BenchRow("Stream tab: SSE event → frame showing it, p95 (p50), \(Figure.grouped(Double(events))) events over \(String(format: "%g", seconds)) s",
                     reqtop: "\(Figure.millis(p95)) (\(Figure.millis(p50)); events \(Figure.millis(latencies.min() ?? 0))–\(Figure.millis(latencies.max() ?? 0)))",
                     target: "≤ 20 ms", met: shown == events && p95 <= 0.020,
                     values: ["latency_p50_s": p50, "latency_p95_s": p95, "shown": Double(shown)]),
            BenchRow("Stream tab: frame time p50 (p95) following the tail; RSS the events added",
                     reqtop: "\(Figure.millis(frame50)) (\(Figure.millis(frame95)); frames \(Figure.millis(frameTimes.min() ?? 0))–"
                        + "\(Figure.millis(frameTimes.max() ?? 0))); +\(Figure.bytes(rssAfter - rssBefore))",
                     values: ["frame_p50_s": frame50, "frame_p95_s": frame95, "rss_added_bytes": rssAfter - rssBefore]),
        ]
    }

    /// N of a `+1.234 s  #N  …` line.
    private static func eventNumber(_ line: String) -> Int? {
        guard let hash = line.range(of: " s  #") else { return nil }
        return Int(line[hash.upperBound...].prefix { $0.isNumber })
    }
}
