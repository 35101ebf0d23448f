import Foundation
import ReqtopInspector
import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// `reqtop-bench tui-memory N`: RSS before and after a `TaskStore` takes N whole lifecycles (and one frame is drawn,
/// so the listing cache exists). Prints `rssBefore rssAfter recordStride timelineEntries` (bytes, bytes, bytes, count).
/// A process of its own, so nothing else is in it.
enum TUIMemoryChild {
    static func main(count: Int) -> Int32 {
        let store = TaskStore()
        TUIBench.applyFinished(count: 100, to: store, firstID: 10_000_000) // load code, size the event log
        let app = InspectorApp(store: store, actions: NoopActions(), title: "bench")
        let terminal = Terminal(backend: CountingBackend(width: 120, height: 40))
        terminal.draw { app.render(&$0) }
        let before = ProcessMemory.residentBytes
        TUIBench.applyFinished(count: count, to: store)
        terminal.draw { app.render(&$0) }
        let after = ProcessMemory.residentBytes
        let timeline = store.record(TaskID(rawValue: 1))?.timeline.count ?? 0
        withExtendedLifetime((store, app, terminal)) {
            print("\(before) \(after) \(MemoryLayout<TaskRecord>.stride) \(timeline)")
        }
        return 0
    }
}
