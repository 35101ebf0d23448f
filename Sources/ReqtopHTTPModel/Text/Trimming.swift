/// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)` without
/// Foundation (reqtop is built on FoundationEssentials, which has no `CharacterSet` trimming): the
/// same sets, compared by Unicode scalar.
extension StringProtocol {
    /// The text without spaces (Unicode category Zs, and the zero-width space as Foundation counts
    /// it) and tabs at either end.
    public func trimmingWhitespace() -> String {
        trimmingScalars(keepsVisibleASCII: true) { Self.isSpace($0) }
    }

    /// `trimmingWhitespace()` that also trims `extra` (`trimmingWhitespace(also: "\r")`: the blanks
    /// and carriage returns at a line's ends, in any order).
    public func trimmingWhitespace(also extra: Unicode.Scalar) -> String {
        trimmingScalars(keepsVisibleASCII: extra.value <= 0x20 || extra.value >= 0x7F) { $0 == extra || Self.isSpace($0) }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\u{200B}" || (!scalar.isASCII && scalar.properties.generalCategory == .spaceSeparator)
    }

    /// The text without white space (Unicode White_Space: spaces, tabs, line breaks; the zero-width
    /// space) at either end.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars(keepsVisibleASCII: true) { $0 == "\u{200B}" || $0.properties.isWhitespace }
    }

    /// The text without the given ASCII bytes at either end (`trimmingASCII(" \t\r")`).
    public func trimmingASCII(_ set: String) -> String {
        let bytes = Array(set.utf8)
        return trimmingScalars(keepsVisibleASCII: false) { $0.isASCII && bytes.contains(UInt8($0.value)) }
    }

    /// `keepsVisibleASCII`: the set has no visible ASCII character, so text that starts and ends
    /// with one (most text) is returned without a look at its scalars.
    private func trimmingScalars(keepsVisibleASCII: Bool, _ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let text = Substring(self)
        func isVisibleASCII(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if keepsVisibleASCII, isVisibleASCII(text.utf8.first), isVisibleASCII(text.utf8.last) { return String(text) }
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
