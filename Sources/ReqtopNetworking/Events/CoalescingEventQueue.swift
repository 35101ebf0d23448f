/// Events waiting for delivery, where a newer progress event of a task replaces an older one
/// that has not been delivered yet — unless a lifecycle event of that task came in between.
/// Lifecycle events are never dropped, so the queue holds at most a few events per task.
struct CoalescingEventQueue {
    private(set) var events: [TaskEvent] = []
    private var progressSlot: [ProgressKey: Int] = [:]

    private struct ProgressKey: Hashable {
        let task: TaskID
        let direction: TransferProgress.Direction
    }

    var isEmpty: Bool { events.isEmpty }

    mutating func append(_ event: TaskEvent) {
        if case .progress(let progress) = event.kind {
            let key = ProgressKey(task: event.task, direction: progress.direction)
            if let slot = progressSlot[key] {
                events[slot] = event
                return
            }
            progressSlot[key] = events.count
        } else {
            progressSlot[ProgressKey(task: event.task, direction: .upload)] = nil
            progressSlot[ProgressKey(task: event.task, direction: .download)] = nil
        }
        events.append(event)
    }

    /// Hands out everything queued and starts empty.
    mutating func takeAll() -> [TaskEvent] {
        defer {
            events.removeAll(keepingCapacity: true)
            progressSlot.removeAll(keepingCapacity: true)
        }
        return events
    }
}
