/// A style over a range of a row's characters (not display columns): what syntax colouring and
/// search highlights lay on a row of text.
public struct Span: Hashable, Sendable {
    /// Character offsets in the row.
    public var characters: Range<Int>
    public var style: Style

    public init(_ characters: Range<Int>, _ style: Style) {
        self.characters = characters
        self.style = style
    }
}
