/// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)` without
/// Foundation (reqtop is built on FoundationEssentials, which has no `CharacterSet` trimming): the
/// same sets, compared by Unicode scalar.
extension StringProtocol {
    /// The text without spaces (Unicode category Zs, and the zero-width space as Foundation counts
    /// it) and tabs at either end.
    public func trimmingWhitespace() -> String {
        trimmingScalars { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The text without white space (Unicode White_Space: spaces, tabs, line breaks; the zero-width
    /// space) at either end.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { $0 == "\u{200B}" || $0.properties.isWhitespace }
    }

    /// The text without the given ASCII bytes at either end (`trimmingASCII(" \t\r")`).
    public func trimmingASCII(_ set: String) -> String {
        let bytes = Array(set.utf8)
        return trimmingScalars { $0.isASCII && bytes.contains(UInt8($0.value)) }
    }

    private func trimmingScalars(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let text = Substring(self)
        // Most text starts and ends with a visible ASCII character: nothing to look up.
        func isVisibleASCII(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if isVisibleASCII(text.utf8.first), isVisibleASCII(text.utf8.last) { return String(text) }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(scalars[first...last]) // sliced by scalar: a String subscript would round to characters
    }
}

extension StringProtocol {
    /// The text cut or padded with spaces to `width` characters (Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)`, counted in characters).
    public func fitted(to width: Int) -> String {
        let count = self.count
        return count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }
}
