import ReqtopHTTPModel

/// Header fields as an aligned name/value table: `Name:` padded to the widest name (up to a cap, a
/// longer name just pushes its value along), then the value, never cut — wrapping (`z`) shows
/// long values whole. Order and duplicates are kept as on the wire.
enum HeaderTable {
    /// Names wider than this do not widen the column for the others.
    static let maxNameColumn = 28

    static func lines(_ headers: [HTTPHeader]) -> [String] {
        let column = min(maxNameColumn, (headers.map { $0.name.count + 1 }.max() ?? 0))
        return headers.map { header in
            let name = header.name + ":"
            let padding = String(repeating: " ", count: max(1, column - name.count + 1))
            guard !header.value.isEmpty else { return name }
            // Shown (it is the user's own screen) but marked: exports and copies redact it.
            let secret = Redaction.isSecretHeader(header.name) && !header.value.containsBytes("{{") ? "  (secret)" : ""
            return name + padding + header.value + secret
        }
    }
}
