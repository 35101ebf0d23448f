import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// `reqtop-bench tui-table N`: over N finished tasks, in a process of its own — the slowest sort
/// (each of the nine columns, both ways), the slowest filter, and a HAR save in the background
/// while keys are pressed: how long the save takes, key → frame latency during it, and RSS before,
/// at its peak and after (not with `--no-save`). Prints `name value` lines (seconds and bytes).
enum TUITableChild {
    static func main(count: Int, save: Bool) -> Int32 {
        let store = TaskStore()
        TUIBench.applyFinished(count: count, to: store)
        let session = InspectorModel(manager: SessionManager(), store: store, secrets: SecretPolicy())
        let app = InspectorApp(store: store, actions: session, title: "bench")
        let terminal = Terminal(backend: CountingBackend(width: 120, height: 40))
        terminal.draw { app.render(&$0) }

        var slowestSort = 0.0
        var sortTimes: [String] = []
        for key in TaskSort.allCases {
            for descending in [false, true] {
                let start = Clock.now()
                _ = store.listing(filter: .all, order: TaskOrder(key, descending: descending))
                let time = Clock.now() - start
                slowestSort = max(slowestSort, time)
                sortTimes.append("sort_\(key.rawValue)_\(descending ? "desc" : "asc")_s \(time)")
            }
        }
        var slowestFilter = 0.0
        for expression in ["status:5xx", "items/9", "method:POST host:example !state:failed", "name:x"] {
            guard let filter = try? TaskFilter(parsing: expression) else { continue }
            let start = Clock.now()
            _ = store.listing(filter: filter, order: .byID)
            slowestFilter = max(slowestFilter, Clock.now() - start)
        }

        guard save else {
            withExtendedLifetime((store, app, terminal, session)) {
                print("sort_slowest_s \(slowestSort)")
                sortTimes.forEach { print($0) }
                print("filter_slowest_s \(slowestFilter)")
            }
            return 0
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-bench-\(getpid()).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rssBefore = ProcessMemory.residentBytes
        var peak = rssBefore
        var keyLatencies: [Double] = []
        let saveStart = Clock.now()
        _ = session.saveHAR(to: path)
        while session.activity != nil {
            // A key and the frame it causes, as the event loop would handle them.
            let start = Clock.now()
            _ = app.handle(keyLatencies.count % 2 == 0 ? .down : .up)
            terminal.draw { app.render(&$0) }
            keyLatencies.append(Clock.now() - start)
            peak = max(peak, ProcessMemory.residentBytes)
            usleep(5_000)
        }
        session.waitForBackgroundWork()
        let saveTime = Clock.now() - saveStart
        let rssAfter = ProcessMemory.residentBytes
        let harBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        withExtendedLifetime((store, app, terminal, session)) {
            print("sort_slowest_s \(slowestSort)")
            sortTimes.forEach { print($0) }
            print("filter_slowest_s \(slowestFilter)")
            print("har_save_s \(saveTime)")
            print("har_bytes \(harBytes)")
            print("key_latency_p95_s \(Stats.percentile(keyLatencies, 0.95))")
            print("key_latency_max_s \(keyLatencies.max() ?? 0)")
            print("rss_before_bytes \(rssBefore)")
            print("rss_peak_bytes \(peak)")
            print("rss_after_bytes \(rssAfter)")
        }
        return 0
    }
}
