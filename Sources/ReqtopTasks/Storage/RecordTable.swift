import ReqtopNetworking

/// The store's tasks in creation order: a fixed-size `TaskRow` each — what the table sorts and
/// filters by — and the whole `TaskRecord`, kept as it is while the task runs and for the newest
/// `finishedKeptWhole` finished ones (256 in the inspector), packed (`PackedBlocks`) after that and read back on demand.
/// A finished task thus costs its row, its text and its share of a deflated block, not a record
/// of a dozen arrays and strings. Not thread-safe: the store holds it under its lock.
struct RecordTable {
    private(set) var rows: [TaskRow] = []
    /// The rows' text (method, URL, name), in row order.
    private var text: [UInt8] = []
    /// Records kept whole, by task.
    private var whole: [TaskID: TaskRecord] = [:]
    private var blocks = PackedBlocks()
    /// Bodies of packed records too large (or in files) to pack: kept beside, under the store's budget.
    private var apart: [TaskID: ResponseBody] = [:]
    /// Finished tasks still whole, oldest first (from `finishedHead`): the next to pack.
    private var finished: [TaskID] = []
    private var finishedHead = 0
    /// The task `take` last unpacked: `put` queues it to be packed again.
    private var unpacked: TaskID?
    /// Packed records read back lately (a frame asks for the same rows again and again).
    private var readBack: [TaskID: TaskRecord] = [:]

    /// How many finished records stay whole (the ones a late event, such as a script's test, is likeliest to reach).
    let finishedKeptWhole: Int
    static let readBackKept = 512

    init(finishedKeptWhole: Int) { self.finishedKeptWhole = finishedKeptWhole }

    var count: Int { rows.count }
    var isEmpty: Bool { rows.isEmpty }

    /// Bytes the packed records take (deflated blocks and the open one).
    var packedBytes: Int { blocks.memoryBytes }

    mutating func append(_ record: TaskRecord) {
        rows.append(TaskRow(record, textStart: text.count))
        TaskRow.appendText(of: record, to: &text)
        whole[record.id] = record
    }

    /// The record at `position`, whole (read back if it was packed; kept a while for the next frame
    /// unless `keepingReadBack` is false, as for a save that reads every record once).
    mutating func record(at position: Int, keepingReadBack: Bool = true) -> TaskRecord {
        let row = rows[position]
        guard let location = row.packed else { return whole[row.id]! }
        var record: TaskRecord
        if let cached = readBack[row.id] {
            record = cached
        } else {
            // A block read back is checked when written (`RecordCodec.append`); failing here means memory was damaged.
            guard let decoded = try? blocks.record(at: location) else { fatalError("task \(row.id)'s packed record cannot be read back") }
            if keepingReadBack {
                if readBack.count >= Self.readBackKept { readBack.removeAll(keepingCapacity: true) }
                readBack[row.id] = decoded
            }
            record = decoded
        }
        if let body = apart[row.id] { record.body = body }
        if row.bodyReleased { record.body = nil; record.bodyReleased = true }
        return record
    }

    /// Takes the record at `position` out to change it; `put` it back.
    mutating func take(at position: Int) -> TaskRecord {
        let row = rows[position]
        unpacked = nil
        guard let location = row.packed else { return whole.removeValue(forKey: row.id)! }
        let record = self.record(at: position)
        unpacked = row.id
        blocks.remove(location)
        apart[row.id] = nil
        readBack[row.id] = nil
        rows[position].packed = nil
        rows[position].bodyReleased = false
        return record
    }

    /// Puts back the record `take` gave, changed.
    mutating func put(_ record: TaskRecord, at position: Int) {
        let wasFinished = rows[position].state.isTerminal
        rows[position].update(from: record)
        whole[record.id] = record
        if record.state.isTerminal, !wasFinished || unpacked == record.id { finished.append(record.id) }
        unpacked = nil
    }

    /// Packs finished records beyond the newest `finishedKeptWhole`; a record that cannot be packed stays whole.
    mutating func packFinished(index: [TaskID: Int]) {
        while finished.count - finishedHead > finishedKeptWhole {
            let id = finished[finishedHead]
            finishedHead += 1
            guard let position = index[id], let record = whole[id], record.state.isTerminal,
                  let location = blocks.add(record) else { continue }
            whole[id] = nil
            if !RecordCodec.packsBody(record.body), let body = record.body { apart[id] = body }
            rows[position].packed = location
            rows[position].bodyReleased = record.bodyReleased
        }
        if finishedHead > 4096, finishedHead * 2 > finished.count {
            finished.removeFirst(finishedHead)
            finishedHead = 0
        }
    }

    /// The body of the record at `position` that counts against the store's budget: one kept whole,
    /// or kept beside a packed record.
    func budgetedBody(at position: Int) -> ResponseBody? {
        let row = rows[position]
        return row.packed == nil ? whole[row.id]?.body : apart[row.id]
    }

    /// Releases that body; returns its size in bytes.
    mutating func releaseBody(at position: Int) -> Int64 {
        let row = rows[position]
        if row.packed == nil {
            guard let body = whole[row.id]?.body else { return 0 }
            whole[row.id]?.body = nil
            whole[row.id]?.bodyReleased = true
            return body.count
        }
        guard let body = apart.removeValue(forKey: row.id) else { return 0 }
        rows[position].bodyReleased = true
        return body.count
    }

    /// Removes the first `count` rows and returns their records, whole.
    mutating func removeFirst(_ count: Int) -> [TaskRecord] {
        let taken = (0..<count).map { take(at: $0) }
        rows.removeFirst(count)
        // The text of rows removed is dropped once it is most of the buffer (amortized over the removals).
        let unused = rows.first?.text.start ?? text.count
        if unused > text.count / 2 {
            text.removeFirst(unused)
            for i in rows.indices { rows[i].text.start -= unused }
        }
        return taken
    }

    /// The rows with their text, read in place (`RowKeys` are valid only inside `body`).
    func withRows<R>(_ body: (UnsafeBufferPointer<TaskRow>, UnsafePointer<UInt8>) throws -> R) rethrows -> R {
        try rows.withUnsafeBufferPointer { rows in
            try text.withUnsafeBufferPointer { text in
                try body(rows, text.baseAddress ?? UnsafePointer(bitPattern: 1)!) // (no text yet: no row reads it)
            }
        }
    }
}
