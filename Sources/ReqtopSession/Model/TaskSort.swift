import ReqtopNetworking

/// The order of the task table.
package enum TaskSort: String, Sendable, CaseIterable {
    case id, duration, size, status

    /// The next order, for the key that cycles through them.
    package var next: TaskSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Whether `a` comes before `b` (ties keep id order). Larger durations, sizes and statuses come first.
    func precedes(_ a: TaskRecord, _ b: TaskRecord, now: Double) -> Bool {
        switch self {
        case .id: return a.id < b.id
        case .duration:
            let (da, db) = (a.duration(now: now) ?? -1, b.duration(now: now) ?? -1)
            return da != db ? da > db : a.id < b.id
        case .size: return a.downloaded != b.downloaded ? a.downloaded > b.downloaded : a.id < b.id
        case .status:
            let (sa, sb) = (a.status ?? 0, b.status ?? 0)
            return sa != sb ? sa > sb : a.id < b.id
        }
    }
}
