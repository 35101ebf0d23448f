import FoundationEssentials
import ReqtopNetworking
import ReqtopTasks
import ReqtopTerminalUI

/// The Cookies tab: the cookies each hop sent (its `Cookie` fields as they went on the wire) and
/// the cookies each response set (`Set-Cookie`, one row per cookie with its attributes).
enum DetailCookies {
    static func lines(_ r: TaskRecord) -> [String] {
        var lines: [String] = []
        let hops = r.redirects.count + 1
        for head in r.sentHeads {
            let sent = head.headers.filter { $0.name.lowercased() == "cookie" }.flatMap { field in
                field.value.split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            }
            let hop = hops > 1 ? " (hop \(head.hop + 1) of \(hops))" : ""
            lines.append("── sent to \(head.url.absoluteString)\(hop) ──")
            lines += sent.isEmpty ? ["(no cookies sent)"] : table(sent.map(SetCookie.nameAndValue).map { [$0.name, $0.value] }, header: ["name", "value"])
            lines.append("")
        }
        if r.sentHeads.isEmpty { lines += [r.state.isTerminal ? "nothing was sent" : "nothing sent yet", ""] }
        var responses = r.redirects.map { (url: $0.from.absoluteString, head: $0.response) }
        if let response = r.response { responses.append((response.url.absoluteString, response)) }
        for (url, head) in responses {
            lines.append("── set by \(url) (\(head.status)) ──")
            let set = head.headers.filter { $0.name.lowercased() == "set-cookie" }.map { SetCookie(parsing: $0.value) }
            lines += set.isEmpty ? ["(no cookies set)"]
                : table(set.map { [$0.name, $0.value, $0.domain, $0.path, $0.expires, $0.flags] },
                        header: ["name", "value", "domain", "path", "expires", "flags"])
            lines.append("")
        }
        return lines
    }

    /// Rows as columns padded to their widest cell (values are never cut: a long one just widens its column).
    static func table(_ rows: [[String]], header: [String]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TextWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { $0 == row.count - 1 ? row[$0] : TextWidth.pad(row[$0], to: widths[$0]) }.joined(separator: "  ")
        }
    }
}
