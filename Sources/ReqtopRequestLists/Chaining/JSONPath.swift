/// The JSONPath subset chaining needs: `$`, `.key`, `['key']`, `["key"]` and `[index]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public struct Invalid: Error, Sendable { public var message: String }

    public var steps: [Step]
    public let description: String

    public init(_ text: String) throws(Invalid) {
        description = text
        let chars = Array(text)
        guard chars.first == "$" else { throw Invalid(message: "JSONPath must start with '$'") }
        var steps: [Step] = []
        var i = 1
        while i < chars.count {
            if chars[i] == "." {
                var j = i + 1
                while j < chars.count, chars[j] != ".", chars[j] != "[" { j += 1 }
                let key = String(chars[(i + 1)..<j])
                guard !key.isEmpty else { throw Invalid(message: "empty key at position \(i + 1) of JSONPath \(quoting: text)") }
                steps.append(.key(key))
                i = j
            } else if chars[i] == "[" {
                guard let close = chars[(i + 1)...].firstIndex(of: "]") else {
                    throw Invalid(message: "unclosed '[' in JSONPath \(quoting: text)")
                }
                let inner = String(chars[(i + 1)..<close])
                if let n = Int(inner), n >= 0 {
                    steps.append(.index(n))
                } else if inner.count >= 2, let q = inner.first, q == "'" || q == "\"", inner.last == q {
                    steps.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    throw Invalid(message: "unsupported selector '[\(inner)]' in JSONPath \(quoting: text) (use [n] or ['key'])")
                }
                i = close + 1
            } else {
                throw Invalid(message: "unexpected '\(chars[i])' at position \(i + 1) of JSONPath \(quoting: text)")
            }
        }
        self.steps = steps
    }

    /// The value at this path, or nil when a step does not exist.
    public func evaluate(_ value: JSONValue) -> JSONValue? {
        var current = value
        for step in steps {
            switch (step, current) {
            case let (.key(key), .object):
                guard let next = current[key] else { return nil }
                current = next
            case let (.index(n), .array(items)):
                guard n < items.count else { return nil }
                current = items[n]
            default:
                return nil
            }
        }
        return current
    }
}
