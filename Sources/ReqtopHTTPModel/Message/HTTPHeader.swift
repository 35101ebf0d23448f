/// One header field, in the order it was written, sent or received. Names keep their case;
/// repeated names stay separate fields (`Set-Cookie`, duplicated request headers).
public struct HTTPHeader: Sendable, Hashable, Codable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `Name: value` as on the wire (`Name:` when the value is empty).
    public var description: String { value.isEmpty ? "\(name):" : "\(name): \(value)" }

    /// Header names are ASCII tokens (RFC 9110 §5.1): compare them with ASCII case folding, byte by byte.
    /// (Foundation's `caseInsensitiveCompare` was 14 % of the engine's instructions, called on every progress callback.)
    public static func namesMatch(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false } // most pairs, without reading the bytes
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

/// The one case-insensitive lookup over an ordered list of header fields.
extension Array where Element == HTTPHeader {
    /// The first value of the header named `name` (case-insensitive).
    public func value(for name: String) -> String? {
        first { HTTPHeader.namesMatch($0.name, name) }?.value
    }

    /// Every value of the header named `name`, in order.
    public func values(for name: String) -> [String] {
        filter { HTTPHeader.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a header named `name` is present.
    public func contains(name: String) -> Bool {
        contains { HTTPHeader.namesMatch($0.name, name) }
    }

    /// Removes every header named like one of `names`.
    public mutating func removeAll(named names: String...) {
        removeAll { header in names.contains { HTTPHeader.namesMatch(header.name, $0) } }
    }
}
