import Foundation
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopSync

/// Records a session from the bus and writes it as HAR 1.2 (`--har PATH`): a `TaskStore` that
/// only listens, exported through `SessionExport` — the same entries the TUI's `w` key saves.
package final class HARRecorder: Sendable {
    private let bus: EventBus
    private let store = TaskStore()
    private let subscription = Protected<EventBus.Subscription?>(nil)

    package init(bus: EventBus) {
        self.bus = bus
    }

    /// Starts listening; tasks created from now on are recorded.
    package func start() {
        let subscription = store.observe(bus)
        self.subscription.withLock { $0 = subscription }
    }

    /// Stops listening once every recorded task has ended (its last event is posted just after
    /// its completion handler ran), waiting at most `timeout` seconds for that.
    package func stop(timeout: Double = 3) {
        store.waitUntilSettled(timeout: timeout)
        subscription.withLock({ $0 })?.cancel()
    }

    /// One entry per finished task that got a response, in creation order.
    package var entries: [HARExportEntry] { SessionExport.harEntries(from: store.allRecords) }

    /// The HAR document.
    package func data() throws -> Data {
        try HARWriter.data(entries: entries, creator: (name: "reqtop", version: ReqtopVersion.string))
    }

    /// Writes the HAR streaming (one task's entries in memory at a time); a symlink or a device
    /// is written through, a folder refused (see `HARStreamWriter`).
    package func write(to url: URL) throws {
        try SessionExport.writeHAR(store.allRecords, to: url.path)
    }
}
