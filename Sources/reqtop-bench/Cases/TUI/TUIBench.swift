import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// The inspector's main screen at 120×40 over many finished tasks while events arrive on the bus:
/// frame time, bytes per frame, completed-event-to-screen latency; and RSS per finished task (in a child).
struct TUIBench {
    let settings: BenchSettings
    static let frameInterval = 1.0 / Double(FrameRate.defaultFramesPerSecond) // the event loop's rate limit

    /// What one render-loop run saw.
    struct LoopResult {
        var frameTimes: [Double] = []
        /// CPU time of the drawing thread per frame: the frame's own cost, without lock waits or preemption.
        var frameCPUTimes: [Double] = []
        var bytesPerFrame: [Int] = []
        var latencies: [Double] = []
        var eventsPerSecond: Double = 0
    }

    func run() throws -> [BenchRow] {
        let tasks = settings.tuiTasks
        let memory = try BenchProcess.run([Binaries.bench, "tui-memory", "\(tasks)"], captureOutput: true, timeout: 600)
        let figures = memory.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        let perTask = figures.count == 4 ? (figures[1] - figures[0]) / Double(tasks) : .nan
        log("tui: RSS per finished task \(Figure.bytes(perTask)) (\(memory.output.trimmingCharacters(in: .whitespacesAndNewlines)))")

        var rows = try tableRows(tasks: tasks, withSave: true)
        rows += StreamTabBench(events: settings.streamEvents, seconds: Double(settings.streamEvents) / 1000).run()
        var store = TaskStore()
        applyFinished(count: tasks, to: store)
        let follow = renderLoop(store: store, followNewest: true, firstID: tasks + 1)
        let top = renderLoop(store: store, followNewest: false, firstID: tasks + 1_000_000)
        for (label, result) in [("following newest tasks", follow), ("table at top", top)] {
            let p50 = Stats.median(result.frameTimes), p95 = Stats.percentile(result.frameTimes, 0.95)
            let cpu50 = Stats.median(result.frameCPUTimes), cpu95 = Stats.percentile(result.frameCPUTimes, 0.95)
            let bytes = result.bytesPerFrame.map(Double.init)
            log("tui \(label): \(result.frameTimes.count) frames, frame p50 \(Figure.millis(p50)) p95 \(Figure.millis(p95)), "
                + "drawing thread CPU p50 \(Figure.millis(cpu50)) p95 \(Figure.millis(cpu95)), "
                + "\(Figure.bytes(Stats.median(bytes))) per frame, \(Figure.grouped(result.eventsPerSecond)) events/s")
            rows.append(BenchRow("TUI frame time p50 (p95), 120×40, \(tasks) tasks, \(Figure.grouped(result.eventsPerSecond)) events/s, \(label)",
                                 reqtop: "\(Figure.millis(p50)) (\(Figure.millis(p95)); frames \(Figure.millis(result.frameTimes.min() ?? 0))–"
                                    + "\(Figure.millis(result.frameTimes.max() ?? 0)))", target: "≤ 1 ms", met: p50 <= 0.001,
                                 values: ["frame_p50_s": p50, "frame_p95_s": p95, "frame_max_s": result.frameTimes.max() ?? 0,
                                          "frames": Double(result.frameTimes.count), "events_per_s": result.eventsPerSecond,
                                          "frame_cpu_p50_s": cpu50, "frame_cpu_p95_s": cpu95]))
            rows.append(BenchRow("TUI frame CPU p50 (p95) of the drawing thread, \(label)",
                                 reqtop: "\(Figure.millis(cpu50)) (\(Figure.millis(cpu95)))",
                                 values: ["frame_cpu_p50_s": cpu50, "frame_cpu_p95_s": cpu95]))
            rows.append(BenchRow("TUI bytes written per frame p50 (p95), \(label)",
                                 reqtop: "\(Figure.bytes(Stats.median(bytes))) (\(Figure.bytes(Stats.percentile(bytes, 0.95))))",
                                 values: ["bytes_p50": Stats.median(bytes), "bytes_p95": Stats.percentile(bytes, 0.95)]))
        }
        let latencies = follow.latencies + top.latencies
        let p50 = Stats.median(latencies), p95 = Stats.percentile(latencies, 0.95)
        log("tui: completed→screen p50 \(Figure.millis(p50)) p95 \(Figure.millis(p95)) max \(Figure.millis(latencies.max() ?? 0)) over \(latencies.count) events")
        rows.append(BenchRow("TUI completed event → frame showing it, p95 (p50)",
                             reqtop: "\(Figure.millis(p95)) (\(Figure.millis(p50)); events \(Figure.millis(latencies.min() ?? 0))–\(Figure.millis(latencies.max() ?? 0)))",
                             target: "≤ 20 ms", met: p95 <= 0.020,
                             values: ["latency_p50_s": p50, "latency_p95_s": p95, "latency_max_s": latencies.max() ?? 0,
                                      "samples": Double(latencies.count)]))
        rows.append(BenchRow("TUI RSS per finished task (\(tasks) tasks, small bodies)", reqtop: Figure.spread(Spread([perTask]), Figure.bytes),
                             target: "≤ 500 B", met: perTask <= 500,
                             values: ["bytes_per_task": perTask, "rss_before_bytes": figures.first ?? 0,
                                      "rss_after_bytes": figures.count == 4 ? figures[1] : 0,
                                      "task_record_stride_bytes": figures.count == 4 ? figures[2] : 0,
                                      "timeline_entries_per_task": figures.count == 4 ? figures[3] : 0]))
        store = TaskStore() // (the 100,000 go before the million come)
        if settings.tuiMillionTasks > 0 { rows += try millionRows(tasks: settings.tuiMillionTasks) }
        return rows
    }

    /// Issue 30's figures at a million finished tasks: memory per task, sort and filter (no HAR save:
    /// the 100,000-task one stands for it), and frame time following the newest tasks.
    private func millionRows(tasks: Int) throws -> [BenchRow] {
        let memory = try BenchProcess.run([Binaries.bench, "tui-memory", "\(tasks)"], captureOutput: true, timeout: 900)
        let figures = memory.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        let perTask = figures.count == 4 ? (figures[1] - figures[0]) / Double(tasks) : .nan
        log("tui: RSS per finished task at \(tasks) tasks \(Figure.bytes(perTask))")
        var rows = try tableRows(tasks: tasks, withSave: false)
        let store = TaskStore()
        applyFinished(count: tasks, to: store)
        let follow = renderLoop(store: store, followNewest: true, firstID: tasks + 1)
        let p50 = Stats.median(follow.frameTimes), p95 = Stats.percentile(follow.frameTimes, 0.95)
        log("tui at \(tasks) tasks: frame p50 \(Figure.millis(p50)) p95 \(Figure.millis(p95))")
        rows.append(BenchRow("TUI frame time p50 (p95), 120×40, \(tasks) tasks, \(Figure.grouped(follow.eventsPerSecond)) events/s, following newest tasks",
                             reqtop: "\(Figure.millis(p50)) (\(Figure.millis(p95)); frames \(Figure.millis(follow.frameTimes.min() ?? 0))–"
                                + "\(Figure.millis(follow.frameTimes.max() ?? 0)))", target: "≤ 2 ms", met: p50 <= 0.002,
                             values: ["frame_p50_s": p50, "frame_p95_s": p95, "frame_max_s": follow.frameTimes.max() ?? 0]))
        rows.append(BenchRow("TUI RSS per finished task (\(tasks) tasks, small bodies)", reqtop: Figure.spread(Spread([perTask]), Figure.bytes),
                             target: "≤ 500 B", met: perTask <= 500,
                             values: ["bytes_per_task": perTask, "rss_before_bytes": figures.first ?? 0,
                                      "rss_after_bytes": figures.count == 4 ? figures[1] : 0]))
        return rows
    }

    /// Sort, filter and (when `withSave`) HAR save over `tasks` finished tasks, measured in a child process.
    /// Sort and filter must take ≤ 50 ms at 100,000 tasks, ≤ 200 ms at a million (issue 30).
    private func tableRows(tasks: Int, withSave: Bool) throws -> [BenchRow] {
        let child = try BenchProcess.run([Binaries.bench, "tui-table", "\(tasks)"] + (withSave ? [] : ["--no-save"]), captureOutput: true, timeout: 900)
        var v: [String: Double] = [:]
        for line in child.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { v[String(parts[0])] = value }
        }
        log("tui table: \(v)")
        let sort = v["sort_slowest_s"] ?? .nan, filter = v["filter_slowest_s"] ?? .nan
        let save = v["har_save_s"] ?? .nan, key = v["key_latency_p95_s"] ?? .nan
        let before = v["rss_before_bytes"] ?? .nan, peak = v["rss_peak_bytes"] ?? .nan, after = v["rss_after_bytes"] ?? .nan
        let limit = tasks >= 1_000_000 ? 0.2 : 0.05, limitText = tasks >= 1_000_000 ? "≤ 200 ms" : "≤ 50 ms"
        let rows = [
            BenchRow("TUI sort of \(tasks) tasks, slowest of the 9 columns × 2 directions", reqtop: Figure.spread(Spread([sort]), Figure.millis),
                     target: limitText, met: sort <= limit, values: ["sort_slowest_s": sort]),
            BenchRow("TUI filter of \(tasks) tasks, slowest of 4 filters", reqtop: Figure.spread(Spread([filter]), Figure.millis),
                     target: limitText, met: filter <= limit, values: ["filter_slowest_s": filter]),
        ]
        guard withSave else { return rows }
        return rows + [
            BenchRow("TUI HAR save of \(tasks) tasks (background): time; key → frame p95 during it", 
                     reqtop: "\(Figure.millis(save)); \(Figure.millis(key)) (1 run)", target: "key ≤ 50 ms", met: key <= 0.05,
                     values: ["har_save_s": save, "key_latency_p95_s": key, "key_latency_max_s": v["key_latency_max_s"] ?? .nan,
                              "har_bytes": v["har_bytes"] ?? .nan]),
            BenchRow("TUI RSS around the HAR save: before / peak / after", 
                     reqtop: "\(Figure.bytes(before)) / \(Figure.bytes(peak)) / \(Figure.bytes(after)) (1 run)",
                     target: "after ≤ 1.1 × before", met: after <= before * 1.1,
                     values: ["rss_before_bytes": before, "rss_peak_bytes": peak, "rss_after_bytes": after]),
        ]
    }

    /// Applies `count` whole lifecycles, a thousand tasks per batch.
    static func applyFinished(count: Int, to store: TaskStore, firstID: Int = 1) {
        var id = firstID
        while id < firstID + count {
            let end = min(firstID + count, id + 1000)
            store.apply((id..<end).flatMap { SyntheticEvents.lifecycle($0, at: Date().timeIntervalSince1970) })
            id = end
        }
    }

    private func applyFinished(count: Int, to store: TaskStore) { Self.applyFinished(count: count, to: store) }

    /// Draws frames as the event loop does (only when the store changed, at most `FrameRate.defaultFramesPerSecond` a second) while a feeder posts events.
    private func renderLoop(store: TaskStore, followNewest: Bool, firstID: Int) -> LoopResult {
        let bus = EventBus()
        let dirty = DirtySignal()
        let subscription = bus.subscribeBatches(queue: DispatchQueue(label: "bench.tui.store")) { events in
            store.apply(events)
            dirty.mark()
        }
        let app = InspectorApp(store: store, actions: NoopActions(), title: "bench")
        let terminal = Terminal(backend: CountingBackend(width: 120, height: 40))
        if followNewest { _ = app.run(.bottom) }
        terminal.draw { app.render(&$0) }
        let baseline = completedCount(in: terminal, app: app)

        let feeder = TUIFeeder(bus: bus, firstID: firstID, eventsPerSecond: settings.tuiEventsPerSecond)
        var result = LoopResult()
        var seen = 0
        var lastFrame = Clock.now()
        let start = Clock.now()
        let end = start + settings.tuiSeconds / 2
        feeder.start()
        while Clock.now() < end {
            guard dirty.wait(timeout: end - Clock.now()) else { continue }
            let sinceLast = Clock.now() - lastFrame
            if sinceLast < Self.frameInterval { usleep(UInt32((Self.frameInterval - sinceLast) * 1e6)) }
            if followNewest { _ = app.run(.bottom) }
            var shown: Buffer?
            let c0 = Clock.threadCPU()
            let t0 = Clock.now()
            terminal.draw { frame in
                app.render(&frame)
                shown = frame.buffer
            }
            let t1 = Clock.now()
            result.frameCPUTimes.append(Clock.threadCPU() - c0)
            lastFrame = t1
            result.frameTimes.append(t1 - t0)
            result.bytesPerFrame.append(terminal.backend.bytesPerFlush.last ?? 0)
            if let shown, let count = Self.completedCount(headerLine: shown.lines.first ?? "") {
                let posts = feeder.completedPostTimes.withLock { $0 }
                let visible = min(count - baseline, posts.count)
                while seen < visible {
                    result.latencies.append(t1 - posts[seen])
                    seen += 1
                }
            }
        }
        feeder.stop()
        subscription.cancel()
        result.eventsPerSecond = Double(feeder.posted.withLock { $0 }) / (Clock.now() - start)
        return result
    }

    private func completedCount(in terminal: Terminal<CountingBackend>, app: InspectorApp) -> Int {
        var count = 0
        terminal.draw { frame in
            app.render(&frame)
            count = Self.completedCount(headerLine: frame.buffer.lines.first ?? "") ?? 0
        }
        return count
    }

    /// The number before "completed" in the header line.
    static func completedCount(headerLine: String) -> Int? {
        let words = headerLine.split(separator: " ")
        guard let index = words.firstIndex(of: "completed"), index > 0 else { return nil }
        return Int(words[index - 1])
    }
}
