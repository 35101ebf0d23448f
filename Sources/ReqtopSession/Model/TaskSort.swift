import ReqtopNetworking

/// What the task table is sorted by (`o` opens a menu of these).
package enum TaskSort: String, Sendable, CaseIterable {
    case id, method, host, path, name, status, size, duration, started

    /// The key that picks this column in the sort menu.
    package var menuKey: Character {
        switch self {
        case .id: "i"
        case .method: "m"
        case .host: "h"
        case .path: "p"
        case .name: "n"
        case .status: "s"
        case .size: "z"
        case .duration: "d"
        case .started: "t"
        }
    }

    /// Largest first for figures (status, size, duration), A→Z and oldest first for the rest.
    package var defaultDescending: Bool { self == .status || self == .size || self == .duration }

    /// A sort key computed once per record per sort, so a sort of 100,000 tasks compares plain
    /// numbers or strings instead of whole records.
    enum Key {
        case number(Double)
        /// Missing values (no name) sort after present ones in either direction.
        case text(String, missing: Bool)
    }

    func key(of r: TaskRecord, now: Double) -> Key {
        switch self {
        case .id: .number(Double(r.id.rawValue))
        case .method: .text(r.method, missing: false)
        case .host: .text(r.hostAndPort.lowercased(), missing: false)
        case .path: .text(r.pathAndQuery, missing: false)
        case .name: .text(r.name?.lowercased() ?? "", missing: r.name == nil)
        case .status: .number(Double(r.status ?? 0))
        case .size: .number(Double(r.downloaded))
        case .duration: .number(r.duration(now: now) ?? -1)
        case .started: .number(r.startedAt ?? .infinity)
        }
    }
}

/// The table's order: a column and a direction (`O` reverses it).
package struct TaskOrder: Hashable, Sendable, CustomStringConvertible {
    package var key: TaskSort
    package var descending: Bool

    package init(_ key: TaskSort, descending: Bool? = nil) {
        self.key = key
        self.descending = descending ?? key.defaultDescending
    }

    /// Creation order, oldest first: the order that needs no sorting.
    package static let byID = TaskOrder(.id)

    package var reversed: TaskOrder { TaskOrder(key, descending: !descending) }

    package var description: String { "\(key.rawValue) \(descending ? "▼" : "▲")" }

    /// The ids of `records` in this order; ties keep creation order.
    func sorted(_ records: [TaskRecord], now: Double) -> [TaskID] {
        let keyed = records.map { (key: key.key(of: $0, now: now), id: $0.id) }
        let descending = self.descending
        return keyed.sorted { a, b in
            switch (a.key, b.key) {
            case (.number(let x), .number(let y)):
                if x != y { return descending ? x > y : x < y }
            case (.text(let x, let mx), .text(let y, let my)):
                if mx != my { return !mx }
                if x != y { return descending ? x > y : x < y }
            default: break
            }
            return a.id < b.id
        }.map(\.id)
    }
}
