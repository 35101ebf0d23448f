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
    public func value(for name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
