import ReqtopNetworking

/// The rows of the task table, in order: every task in creation order (nothing copied: row i is
/// the store's i-th record), or the record positions a filter or sort produced (records are never
/// removed, so a position names its task for good). Ask the store for the records of a few rows
/// with `TaskStore.records(_:rows:)`; each lookup is O(1).
package struct TaskListing: Sendable {
    enum Rows: Sendable {
        case all(count: Int)
        /// `order[row]` is a record position; `rowOf[position]` its row, -1 when filtered out.
        case positions(order: [Int32], rowOf: [Int32])
    }

    let rows: Rows

    /// No rows.
    package static let empty = TaskListing(rows: .all(count: 0))

    package var count: Int {
        switch rows {
        case .all(let count): count
        case .positions(let order, _): order.count
        }
    }
}
