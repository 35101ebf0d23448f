import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
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

    /// Whether this column sorts by a number (else by text).
    var isNumeric: Bool {
        switch self {
        case .method, .host, .path, .name: false
        default: true
        }
    }

    /// The numeric sort key of a row.
    func number(of r: RowKeys, now: Double) -> Double {
        switch self {
        case .id: Double(r.id.rawValue)
        case .status: Double(r.status ?? 0)
        case .size: Double(r.downloaded)
        case .duration: r.startedAt.map { (r.endedAt ?? now) - $0 } ?? -1
        case .started: r.startedAt ?? .infinity
        default: 0
        }
    }

    /// Appends the text sort key of a row to `bytes` as UTF-8 (host and name case-folded);
    /// false when the task has none (a task without a name), which sorts after every present
    /// value in either direction.
    func appendText(of r: RowKeys, to bytes: inout [UInt8]) -> Bool {
        switch self {
        case .method: bytes.append(contentsOf: r.method)
        case .host:
            for byte in r.host { bytes.append(ASCII.lowercased(byte)) }
            if let port = r.port { // its digits, no string made
                bytes.append(UInt8(ascii: ":"))
                var divisor = 1
                while divisor * 10 <= port { divisor *= 10 }
                while divisor > 0 { bytes.append(UInt8(ascii: "0") + UInt8(port / divisor % 10)); divisor /= 10 }
            }
        case .path:
            // No path sorts as "/" (what is sent), before its query if it has one.
            let pathQuery = r.pathAndQuery
            if pathQuery.first != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
            bytes.append(contentsOf: pathQuery)
        case .name:
            guard let name = r.name else { return false }
            bytes.append(contentsOf: name.lazy.map(ASCII.lowercased))
        default: break
        }
        return true
    }
}

/// Byte-level ASCII helpers for sorting and filtering many records without building Strings.
enum ASCII {
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `bytes` contain `needle` (already lower-case), ignoring ASCII case.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, lowercasedNeedle needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard bytes.count >= needle.count else { return false }
        let first = needle[0]
        var i = 0
        let last = bytes.count - needle.count
        while i <= last {
            if lowercased(bytes[i]) == first {
                var j = 1
                while j < needle.count, lowercased(bytes[i + j]) == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether `bytes`, upper-cased (ASCII), are `text`.
    static func equalsUppercased(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        for (byte, other) in zip(bytes, text.utf8) where (byte >= 0x61 && byte <= 0x7A ? byte & 0xDF : byte) != other { return false }
        return true
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

    /// `indices` of `table`'s rows in this order; ties keep creation order (the index order).
    func sorted(_ indices: [Int], of table: RecordTable, now: Double) -> [Int] {
        let descending = self.descending
        if key.isNumeric {
            var keyed = table.withRows { rows, text in
                indices.map { (key: key.number(of: RowKeys(row: rows.baseAddress! + $0, base: text), now: now), index: $0) }
            }
            keyed.sort { a, b in a.key != b.key ? (descending ? a.key > b.key : a.key < b.key) : a.index < b.index }
            return keyed.map(\.index)
        }
        // Text keys live in one byte buffer and are compared with memcmp through raw pointers: no
        // String comparison and no reference counting inside the sort.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(indices.count * 24) // most keys are shorter: the buffer is not grown and copied as it fills
        var starts = [Int](), lengths = [Int](), present = [Bool]()
        starts.reserveCapacity(indices.count); lengths.reserveCapacity(indices.count); present.reserveCapacity(indices.count)
        table.withRows { rows, text in
            for index in indices {
                let start = bytes.count
                present.append(key.appendText(of: RowKeys(row: rows.baseAddress! + index, base: text), to: &bytes))
                starts.append(start)
                lengths.append(bytes.count - start)
            }
        }
        bytes.append(0) // a base address even when every key is empty
        var order = Array(indices.indices)
        bytes.withUnsafeBufferPointer { base in
            starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    present.withUnsafeBufferPointer { present in
                        let before = TextOrder(base: base.baseAddress!, starts: starts, lengths: lengths, present: present,
                                               descending: descending)
                        TextOrder.sort(&order, by: before)
                    }
                }
            }
        }
        return order.map { indices[$0] }
    }
}

/// Text keys compared with memcmp in one byte buffer; ties keep creation order. A long table is
/// sorted in two halves at once (one per core) and merged.
private struct TextOrder: @unchecked Sendable { // read-only buffers that outlive the sort
    let base: UnsafePointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let lengths: UnsafeBufferPointer<Int>
    let present: UnsafeBufferPointer<Bool>
    let descending: Bool

    /// Whether the key of `a` goes before the key of `b`.
    @inline(__always) func callAsFunction(_ a: Int, _ b: Int) -> Bool {
        if present[a] != present[b] { return present[a] }
        let common = min(lengths[a], lengths[b])
        var result = memcmp(base + starts[a], base + starts[b], common)
        if result == 0 { result = lengths[a] == lengths[b] ? 0 : (lengths[a] < lengths[b] ? -1 : 1) }
        if result == 0 { return a < b }
        return descending ? result > 0 : result < 0
    }

    /// Below this many, one thread sorts.
    static let parallelFrom = 200_000

    static func sort(_ order: inout [Int], by before: TextOrder) {
        guard order.count >= parallelFrom, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            return order.sort(by: before.callAsFunction)
        }
        let middle = order.count / 2
        order.withUnsafeMutableBufferPointer { all in
            let halves = UnsafeHalves(all: all, middle: middle)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                var part = halves.half(half)
                part.sort(by: before.callAsFunction)
            }
        }
        var merged: [Int] = []
        merged.reserveCapacity(order.count)
        var i = 0, j = middle
        while i < middle, j < order.count {
            if before(order[j], order[i]) { merged.append(order[j]); j += 1 } else { merged.append(order[i]); i += 1 }
        }
        merged += order[i..<middle]
        merged += order[j...]
        order = merged
    }

    /// The two halves of one buffer, each sorted by a thread of its own.
    private struct UnsafeHalves: @unchecked Sendable {
        let all: UnsafeMutableBufferPointer<Int>
        let middle: Int
        func half(_ n: Int) -> UnsafeMutableBufferPointer<Int> {
            n == 0 ? UnsafeMutableBufferPointer(rebasing: all[..<middle]) : UnsafeMutableBufferPointer(rebasing: all[middle...])
        }
    }
}
