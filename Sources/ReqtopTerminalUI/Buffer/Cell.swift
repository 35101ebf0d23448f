/// One terminal column: a grapheme and its style.
///
/// A wide grapheme (2 columns) occupies its own cell and the cell to its right,
/// which is marked `isContinuation` and never drawn by itself.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown in this column (already sanitized; a single space when blank).
    public var symbol: String
    public var style: Style
    /// True for the right half of a wide grapheme that starts in the cell to the left.
    public var isContinuation: Bool

    public init(_ symbol: String = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.symbol = symbol
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A blank cell in the default style.
    public static let blank = Cell()

    /// Columns this cell's grapheme takes (0 for a continuation).
    public var width: Int { isContinuation ? 0 : max(1, TextWidth.of(symbol)) }
}
