/// The identifier of one task within a `SessionManager`: the key of the task-delegate registry.
public struct TaskID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// What a task does with its body.
public enum TaskKind: String, Sendable {
    case data, download, upload
}
