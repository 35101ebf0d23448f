import ReqtopSync

/// Task identifier → task delegate, behind one lock: AFNetworking's `mutableTaskDelegatesKeyedByTaskIdentifier`.
///
/// An entry is added before the task can call back and removed when the task ends.
final class TaskDelegateRegistry: Sendable {
    private let delegates = Protected([TaskID: TaskDelegate]())

    func register(_ delegate: TaskDelegate) {
        delegates.withLock { delegates in
            precondition(delegates[delegate.task.id] == nil, "task \(delegate.task.id) registered twice")
            delegates[delegate.task.id] = delegate
        }
    }

    /// The delegate of `id`. An unknown identifier is a programmer error: it traps in debug builds.
    func delegate(for id: TaskID) -> TaskDelegate? {
        let delegate = delegates.withLock { $0[id] }
        assert(delegate != nil, "callback for task \(id), which has no registered delegate")
        return delegate
    }

    /// The delegate of `id` if there is one, without the unknown-identifier check.
    func peek(_ id: TaskID) -> TaskDelegate? {
        delegates.withLock { $0[id] }
    }

    /// Whether `id` has a delegate: the check before every engine callback, without taking the delegate.
    func contains(_ id: TaskID) -> Bool {
        delegates.withLock { $0.index(forKey: id) != nil }
    }

    @discardableResult
    func remove(_ id: TaskID) -> TaskDelegate? {
        delegates.withLock { $0.removeValue(forKey: id) }
    }

    var count: Int { delegates.withLock { $0.count } }

    var all: [TaskDelegate] { delegates.withLock { Array($0.values) } }
}
