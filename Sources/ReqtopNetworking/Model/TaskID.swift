/// The identifier of one task within a `SessionManager`: the key of the task-delegate registry.
public struct TaskID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// What `Set` and `Dictionary` hash a task by: its number mixed with their seed by a multiply and
    /// two shifts rather than run through SipHash. Numbers are handed out in order by the manager,
    /// never chosen from outside, so there is no flooding to resist, and the engine looks tasks up
    /// several times a request (the registry, its transfers, the event queue): hashing was 2 % of the
    /// engine thread's time.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(UInt(bitPattern: rawValue)) &+ UInt64(UInt(bitPattern: seed))
        mixed = (mixed ^ (mixed &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        mixed = (mixed ^ (mixed &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 32))
    }
}

/// What a task does with its body.
public enum TaskKind: String, Sendable {
    case data, download, upload
}
