/// Events waiting for delivery, where a newer progress event of a task replaces an older one
/// that has not been delivered yet — unless a lifecycle event of that task came in between.
/// Lifecycle events are never dropped, so the queue holds at most a few events per task.
struct CoalescingEventQueue {
    private(set) var events: [TaskEvent] = []
    /// Where each task's undelivered progress events sit in `events` (-1: none): one hash per event.
    private var progressSlots: [TaskID: Slots] = [:]

    private struct Slots {
        var upload = -1
        var download = -1

        /// Where the direction's undelivered progress event is; when there is none (-1), `position`
        /// becomes its place.
        mutating func claim(_ direction: TransferProgress.Direction, at position: Int) -> Int {
            let slot = direction == .upload ? upload : download
            if slot < 0 {
                if direction == .upload { upload = position } else { download = position }
            }
            return slot
        }
    }

    var isEmpty: Bool { events.isEmpty }

    mutating func append(_ event: TaskEvent) {
        if case .progress(let progress) = event.kind {
            let slot = progressSlots[event.task, default: Slots()].claim(progress.direction, at: events.count)
            if slot >= 0 {
                events[slot] = event
                return
            }
        } else if !progressSlots.isEmpty {
            progressSlots[event.task] = nil
        }
        events.append(event)
    }

    /// Hands out everything queued and starts empty.
    mutating func takeAll() -> [TaskEvent] {
        defer {
            events.removeAll(keepingCapacity: true)
            progressSlots.removeAll(keepingCapacity: true)
        }
        return events
    }
}
