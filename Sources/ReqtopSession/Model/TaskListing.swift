import ReqtopNetworking

/// The rows of the task table, in order: every task in creation order (nothing copied: row i is
/// the store's i-th record), or the ids a filter or sort produced. Ask the store for the records
/// of a few rows with `TaskStore.records(_:rows:)`; each lookup is O(1).
package struct TaskListing: Sendable {
    enum Rows: Sendable {
        case all(count: Int)
        case ids([TaskID], positions: [TaskID: Int])
    }

    let rows: Rows

    /// No rows.
    package static let empty = TaskListing(rows: .all(count: 0))

    package var count: Int {
        switch rows {
        case .all(let count): count
        case .ids(let ids, _): ids.count
        }
    }
}
