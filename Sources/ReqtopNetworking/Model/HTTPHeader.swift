/// One header field, in the order it was sent or received.
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The first value of the header named `name` (case-insensitive).
    /// One value per name, repeated headers joined with ", " as HTTP allows.
    public var joinedByName: [String: String] {
        var fields: [String: String] = [:]
        for header in self {
            if let existing = fields[header.name] { fields[header.name] = existing + ", " + header.value }
            else { fields[header.name] = header.value }
        }
        return fields
    }

    public func value(for name: String) -> String? {
        first { HTTPHeader.namesMatch($0.name, name) }?.value
    }
}

extension HTTPHeader {
    /// Header names are ASCII tokens (RFC 9110 §5.1): compare them with ASCII case folding, byte by byte.
    /// (Foundation's `caseInsensitiveCompare` was 14 % of the engine's instructions, called on every progress callback.)
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where x[i] != y[i] {
                    let lx = x[i] | 0x20, ly = y[i] | 0x20
                    guard lx == ly, lx >= 0x61, lx <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}
