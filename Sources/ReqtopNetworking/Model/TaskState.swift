/// The lifecycle of a task: suspended (new) → running ⇄ suspended → completed | failed | cancelled.
public enum TaskState: String, Sendable, CaseIterable {
    case suspended, running, completed, failed, cancelled

    /// True for the three states a task never leaves.
    public var isTerminal: Bool {
        switch self {
        case .completed, .failed, .cancelled: true
        case .suspended, .running: false
        }
    }

    /// Whether the state machine allows moving from `self` to `next`.
    public func canTransition(to next: TaskState) -> Bool {
        switch (self, next) {
        case (.suspended, .running), (.running, .suspended): true
        case (.running, .completed), (.running, .failed): true
        case (.suspended, .cancelled), (.running, .cancelled): true
        // A suspended transfer can still fail (the server resets it while paused), and one can
        // finish just before its pause takes effect.
        case (.suspended, .failed), (.suspended, .completed): true
        default: false
        }
    }
}

/// A transition the state machine refused; nothing was applied.
public struct IllegalTransition: Error, Sendable, CustomStringConvertible {
    public let task: TaskID
    public let from: TaskState
    public let to: TaskState
    public var description: String { "task \(task): cannot go from \(from.rawValue) to \(to.rawValue)" }
}
