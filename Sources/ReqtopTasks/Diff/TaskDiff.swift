import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopTerminalText

/// What differs between two tasks: status, request and response headers, bodies (JSON by path,
/// text by line) and timings, as lines for a two-column view. `=` same, `~` changed,
/// `-` only in A, `+` only in B.
package enum TaskDiff {
    /// The diff of `a` and `b` in columns sized for `width` cells.
    package static func lines(_ a: TaskRecord, _ b: TaskRecord, width: Int) -> [String] {
        let column = max(12, (width - 20) / 2)
        var lines = ["A: \(a.id) \(a.method) \(a.url.absoluteString)", "B: \(b.id) \(b.method) \(b.url.absoluteString)", ""]
        func row(_ marker: String, _ name: String, _ left: String, _ right: String) -> String {
            "\(marker) " + pad(name, 16) + " " + pad(left, column) + " │ " + right
        }
        let statusA = a.response.map { "\($0.status) \($0.reason)" } ?? a.state.rawValue
        let statusB = b.response.map { "\($0.status) \($0.reason)" } ?? b.state.rawValue
        lines.append(row(statusA == statusB ? "=" : "~", "status", statusA, statusB))
        lines.append(row(a.method == b.method ? "=" : "~", "method", a.method, b.method))
        lines.append(row(a.url == b.url ? "=" : "~", "url", a.url.absoluteString, b.url.absoluteString))

        lines += ["", "── request headers (as sent) ──"]
        lines += headerRows(a.sentHeads.last?.headers ?? a.request.headers, b.sentHeads.last?.headers ?? b.request.headers, row: row)
        lines += ["", "── response headers ──"]
        lines += headerRows(a.response?.headers ?? [], b.response?.headers ?? [], row: row)

        lines += ["", "── response body ──"]
        lines += bodyRows(a, b)

        lines += ["", "── timings ──"]
        let ta = a.timings ?? .unknown, tb = b.timings ?? .unknown
        for (name, x, y) in [("dns", ta.dns, tb.dns), ("connect", ta.connect, tb.connect), ("tls", ta.tls, tb.tls),
                             ("send", ta.send, tb.send), ("wait", ta.wait, tb.wait), ("receive", ta.receive, tb.receive),
                             ("total", ta.total, tb.total)] {
            let delta = x >= 0 && y >= 0 ? "  (Δ \(y >= x ? "+" : "−")\(Milliseconds.format(abs(y - x))))" : ""
            lines.append(row(x == y ? "=" : "~", name, Milliseconds.format(x), Milliseconds.format(y) + delta))
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        TextWidth.pad(TextWidth.truncate(text, to: width), to: width)
    }

    /// One row per header name, in A's order then B's new names; repeated fields compared as a list.
    package static func headerRows(_ a: [HTTPHeader], _ b: [HTTPHeader],
                           row: (String, String, String, String) -> String) -> [String] {
        var names: [String] = []
        for header in a + b where !names.contains(where: { $0.lowercased() == header.name.lowercased() }) { names.append(header.name) }
        if names.isEmpty { return ["(none)"] }
        return names.map { name in
            let left = a.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
            let right = b.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
            let marker = left.isEmpty ? "+" : right.isEmpty ? "-" : left == right ? "=" : "~"
            return row(marker, name, left.joined(separator: ", "), right.joined(separator: ", "))
        }
    }

    /// Bodies compared as JSON by path when both parse, else line by line.
    package static func bodyRows(_ a: TaskRecord, _ b: TaskRecord) -> [String] {
        let limit = 1 << 20
        guard let whole = a.body, let other = b.body else {
            return ["(\(a.body == nil ? "A" : "B") has no body kept)"]
        }
        guard let bodyA = try? whole.prefix(limit), let bodyB = try? other.prefix(limit) else {
            return ["(a body could not be read)"]
        }
        let sizes = whole.count == other.count ? [] : ["~ size: \(ByteCount.format(whole.count)) → \(ByteCount.format(other.count))"]
        let scope = whole.count > Int64(limit) || other.count > Int64(limit) ? ["(only the first \(ByteCount.format(Int64(limit))) of each is compared)"] : []
        if bodyA == bodyB { return sizes + scope + (sizes.isEmpty ? ["= the same \(ByteCount.format(whole.count))"] : []) }
        return sizes + scope + contentRows(bodyA, bodyB)
    }

    private static func contentRows(_ bodyA: Data, _ bodyB: Data) -> [String] {
        if let jsonA = try? JSONValue(parsing: bodyA), let jsonB = try? JSONValue(parsing: bodyB) {
            return jsonRows(jsonA, jsonB)
        }
        return lineRows(String(decoding: bodyA, as: UTF8.self), String(decoding: bodyB, as: UTF8.self))
    }

    package static func jsonRows(_ a: JSONValue, _ b: JSONValue) -> [String] {
        let left = flatten(a), right = flatten(b)
        let rightByPath = Dictionary(right.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let leftPaths = Set(left.map(\.path))
        var rows: [String] = []
        for (path, value) in left {
            guard let other = rightByPath[path] else { rows.append("- \(path): \(value)"); continue }
            if other != value { rows.append("~ \(path): \(value) → \(other)") }
        }
        for (path, value) in right where !leftPaths.contains(path) { rows.append("+ \(path): \(value)") }
        return rows.isEmpty ? ["= the same JSON (formatting differs)"] : rows
    }

    /// Leaves of a JSON value with their paths (`$.a[0].b`); an empty object or array is a leaf.
    package static func flatten(_ value: JSONValue, path: String = "$") -> [(path: String, value: String)] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return members.flatMap { flatten($0.value, path: path + "." + $0.key) }
        case .array(let items) where !items.isEmpty:
            return items.enumerated().flatMap { flatten($0.element, path: path + "[\($0.offset)]") }
        default:
            return [(path, value.jsonText)]
        }
    }

    /// A line diff (longest common subsequence) for up to 2,000 lines a side.
    package static func lineRows(_ a: String, _ b: String) -> [String] {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard left.count <= 2000, right.count <= 2000 else {
            let first = left.indices.first { $0 >= right.count || left[$0] != right[$0] } ?? left.count
            return ["~ \(left.count) lines → \(right.count) lines; the first difference is at line \(first + 1) (too long to diff line by line)"]
        }
        var common = Array(repeating: Array(repeating: 0, count: right.count + 1), count: left.count + 1)
        for i in stride(from: left.count - 1, through: 0, by: -1) {
            for j in stride(from: right.count - 1, through: 0, by: -1) {
                common[i][j] = left[i] == right[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var rows: [String] = []
        var i = 0, j = 0
        while i < left.count || j < right.count {
            if i < left.count, j < right.count, left[i] == right[j] {
                rows.append("  " + left[i]); i += 1; j += 1
            } else if i < left.count, j == right.count || common[i + 1][j] >= common[i][j + 1] {
                rows.append("- " + left[i]); i += 1
            } else {
                rows.append("+ " + right[j]); j += 1
            }
        }
        return rows
    }
}
