import FoundationEssentials
import ReqtopNetworking

/// A filter expression over tasks: terms separated by spaces, all of which must match (AND);
/// a leading `!` negates a term. Terms: free text (matches the URL, case-insensitive),
/// `status:404`, `status:4xx`, `method:POST`, `state:failed`, `host:api`, `name:login`.
package struct TaskFilter: Sendable, Hashable, CustomStringConvertible {
    /// Text terms keep their lower-cased UTF-8 bytes: matching is byte-level, ASCII case-insensitive.
    enum Term: Sendable, Hashable {
        case text([UInt8])
        case status(ClosedRange<Int>)
        case method(String)
        case state(TaskState)
        case host([UInt8])
        case name([UInt8])
    }

    struct Clause: Sendable, Hashable {
        var negated: Bool
        var term: Term
    }

    let clauses: [Clause]
    package let description: String

    /// The filter that matches everything.
    package static let all = TaskFilter(clauses: [], description: "")

    private init(clauses: [Clause], description: String) {
        self.clauses = clauses
        self.description = description
    }

    /// Why an expression could not be parsed.
    package struct ParseError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Parses an expression; an empty one matches everything.
    package init(parsing expression: String) throws(ParseError) {
        var clauses: [Clause] = []
        for raw in expression.split(whereSeparator: \.isWhitespace) {
            var token = Substring(raw)
            let negated = token.hasPrefix("!")
            if negated { token = token.dropFirst() }
            guard !token.isEmpty else { throw ParseError(description: "'!' needs a term after it") }
            clauses.append(Clause(negated: negated, term: try Self.term(token)))
        }
        self.init(clauses: clauses, description: expression.trimmingWhitespace())
    }

    private static func term(_ token: Substring) throws(ParseError) -> Term {
        guard let colon = token.firstIndex(of: ":"),
              let key = Optional(token[..<colon].lowercased()),
              ["status", "method", "state", "host", "name"].contains(key) else {
            return .text(Array(token.lowercased().utf8))
        }
        let value = String(token[token.index(after: colon)...])
        guard !value.isEmpty else { throw ParseError(description: "\(key): needs a value") }
        switch key {
        case "status":
            let lower = value.lowercased()
            if lower.count == 3, lower.hasSuffix("xx"), let digit = Int(lower.prefix(1)) {
                return .status(digit * 100...digit * 100 + 99)
            }
            guard let code = Int(value) else {
                throw ParseError(description: "status: takes a code (404) or a class (4xx), not '\(value)'")
            }
            return .status(code...code)
        case "method": return .method(value.uppercased())
        case "state":
            guard let state = TaskState(rawValue: value.lowercased()) else {
                let names = TaskState.allCases.map(\.rawValue).joined(separator: ", ")
                throw ParseError(description: "state: is one of \(names), not '\(value)'")
            }
            return .state(state)
        case "host": return .host(Array(value.lowercased().utf8))
        default: return .name(Array(value.lowercased().utf8))
        }
    }

    /// Whether the task of `row` passes every clause (read in place: at a million tasks, no
    /// record is read back and no string is made).
    func matches(_ row: RowKeys) -> Bool {
        for clause in clauses {
            let hit: Bool
            switch clause.term {
            case .text(let text): hit = ASCII.contains(row.url, lowercasedNeedle: text)
            case .status(let range): hit = row.status.map { range.contains($0) } ?? false
            case .method(let method): hit = ASCII.equalsUppercased(row.method, method)
            case .state(let state): hit = row.state == state
            case .host(let host): hit = ASCII.contains(row.host, lowercasedNeedle: host)
            case .name(let name): hit = row.name.map { ASCII.contains($0, lowercasedNeedle: name) } ?? false
            }
            if hit == clause.negated { return false }
        }
        return true
    }

    package var isEmpty: Bool { clauses.isEmpty }
}
