import ReqtopNetworking

/// What the table sorts and filters a task by, fixed-size: its figures here, its text (method,
/// URL, name) in the table's text buffer, and where its whole record is.
struct TaskRow {
    let id: TaskID
    var state: TaskState
    /// The final response's status, 0 before one came.
    var status: Int32 = 0
    var downloaded: Int64 = 0
    /// Seconds since 1970; NaN when not yet.
    var startedAt = Double.nan
    var endedAt = Double.nan
    var text: Text
    /// Where the packed record is; nil while the record is kept whole.
    var packed: PackedBlocks.Location?
    /// The packed record's body was released (or kept apart: then it is in the table's `apart`).
    var bodyReleased = false

    /// Offsets of the row's text in the table's buffer: method, URL and name one after another.
    struct Text {
        var start: Int
        let methodCount: UInt32
        let urlCount: UInt32
        /// −1: the task has no name.
        let nameCount: Int32
        /// The host's and the path-and-query's ranges in the URL.
        let hostStart: UInt32, hostEnd: UInt32
        let pathStart: UInt32, pathEnd: UInt32
        /// −1: the URL names no port.
        let port: Int32
    }

    init(_ record: TaskRecord, textStart: Int) {
        id = record.id
        state = record.state
        let url = record.request.url
        let (host, path) = url.utf8HostAndPathQueryRanges
        text = Text(start: textStart, methodCount: UInt32(record.request.method.utf8.count), urlCount: UInt32(url.absoluteString.utf8.count),
                    nameCount: record.name.map { Int32($0.utf8.count) } ?? -1,
                    hostStart: UInt32(host.lowerBound), hostEnd: UInt32(host.upperBound),
                    pathStart: UInt32(path.lowerBound), pathEnd: UInt32(path.upperBound), port: Int32(url.port ?? -1))
        update(from: record)
    }

    /// The row's text: what `init` measured, in the order the table's buffer holds it.
    static func appendText(of record: TaskRecord, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: record.request.method.utf8)
        buffer.append(contentsOf: record.request.url.absoluteString.utf8)
        if let name = record.name { buffer.append(contentsOf: name.utf8) }
    }

    /// Takes the figures that change as events come.
    mutating func update(from record: TaskRecord) {
        state = record.state
        status = Int32(truncatingIfNeeded: record.response?.status ?? 0)
        downloaded = record.downloaded
        startedAt = record.startedAt ?? .nan
        endedAt = record.endedAt ?? .nan
    }
}

/// A row read for sorting and filtering: its figures, and its text as bytes in the table's buffer
/// (valid only inside the call that hands it out).
struct RowKeys {
    let row: UnsafePointer<TaskRow>
    let base: UnsafePointer<UInt8>

    var id: TaskID { row.pointee.id }
    var state: TaskState { row.pointee.state }
    var status: Int? { row.pointee.status == 0 ? nil : Int(row.pointee.status) }
    var downloaded: Int64 { row.pointee.downloaded }
    var startedAt: Double? { row.pointee.startedAt.isNaN ? nil : row.pointee.startedAt }
    var endedAt: Double? { row.pointee.endedAt.isNaN ? nil : row.pointee.endedAt }
    var port: Int? { row.pointee.text.port < 0 ? nil : Int(row.pointee.text.port) }

    private var textStart: UnsafePointer<UInt8> { base + row.pointee.text.start }
    private var urlStart: UnsafePointer<UInt8> { textStart + Int(row.pointee.text.methodCount) }

    var method: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textStart, count: Int(row.pointee.text.methodCount)) }
    var url: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: urlStart, count: Int(row.pointee.text.urlCount)) }
    var host: UnsafeBufferPointer<UInt8> {
        let t = row.pointee.text
        return UnsafeBufferPointer(start: urlStart + Int(t.hostStart), count: Int(t.hostEnd - t.hostStart))
    }
    var pathAndQuery: UnsafeBufferPointer<UInt8> {
        let t = row.pointee.text
        return UnsafeBufferPointer(start: urlStart + Int(t.pathStart), count: Int(t.pathEnd - t.pathStart))
    }
    var name: UnsafeBufferPointer<UInt8>? {
        let t = row.pointee.text
        guard t.nameCount >= 0 else { return nil }
        return UnsafeBufferPointer(start: urlStart + Int(t.urlCount), count: Int(t.nameCount))
    }
}
