/// A parsed JSON value with the 1-based line and column where it starts, and the same for
/// every value inside it (from `JSONParser.parseLocated`). Positions live here, not in
/// `JSONValue`, so values compare and hash by content alone.
public struct LocatedJSON: Sendable {
    public let value: JSONValue
    /// Where the value starts; for an object member, where its key starts.
    public let line: Int
    public let column: Int
    /// The array's items or the object's members, in document order; empty for other values.
    public let children: [LocatedJSON]

    /// A value read from text with its place (`JSONParser.parseLocated`, a YAML reader).
    public init(value: JSONValue, line: Int, column: Int, children: [LocatedJSON]) {
        self.value = value
        self.line = line
        self.column = column
        self.children = children
    }

    /// The member with this key, for objects.
    public subscript(key: String) -> LocatedJSON? {
        guard case let .object(members) = value, let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return children[index]
    }
}
