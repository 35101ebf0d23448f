import CTextWidth

/// Display width of text in terminal columns, per the C library's `wcwidth`, one grapheme at a time.
///
/// CJK and emoji take 2 columns, combining marks 0 (they join the grapheme before them),
/// an emoji followed by VS16 (U+FE0F) 2. Text is expected to be sanitized; control characters count 0.
public enum TextWidth {
    /// Set LC_CTYPE to a UTF-8 locale once, so `wcwidth` knows non-ASCII scalars.
    private static let utf8Locale: Bool = ctextwidth_ensure_utf8_locale() == 1

    /// Columns `text` takes.
    public static func of(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        var total = 0
        for grapheme in text { total += of(grapheme) }
        return total
    }

    /// Columns one grapheme takes (0, 1 or 2).
    public static func of(_ grapheme: Character) -> Int {
        let scalars = grapheme.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value >= 0x20 && first.value < 0x7F && scalars.count == 1 { return 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 } // regional-indicator flags
        return max(0, scalarWidth(first))
    }

    /// `wcwidth` of one scalar (-1 for non-printable).
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        _ = utf8Locale
        let w = Int(ctextwidth_wcwidth(scalar.value))
        if w < 0 && !utf8Locale && scalar.value >= 0xA0 { return 1 }
        return w
    }

    /// `text` cut to at most `width` columns; when cut, the last column is `…`.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for grapheme in text {
            let w = of(grapheme)
            if used + w > width - 1 { break }
            result.append(grapheme)
            used += w
        }
        return result + "…"
    }

    /// `text` padded with spaces (or truncated) to exactly `width` columns.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let fill = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? fill + cut : cut + fill
    }

    /// `text` broken into lines of at most `width` columns, at spaces where possible.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var lineHasWords = false // an empty word (from leading or repeated spaces) counts: the spaces stay
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(word)
            var wordWidth = of(word)
            let gap = lineHasWords ? 1 : 0
            if lineWidth + gap + wordWidth <= width {
                if gap == 1 { line += " " }
                line += word
                lineWidth += gap + wordWidth
                lineHasWords = true
                continue
            }
            if lineHasWords { lines.append(line); line = ""; lineWidth = 0; lineHasWords = false }
            if word.isEmpty { continue } // a space at the break: the break replaces it
            while wordWidth > width {
                var head = ""
                var headWidth = 0
                var rest = word[...]
                while let g = rest.first, headWidth + of(g) <= width {
                    head.append(g)
                    headWidth += of(g)
                    rest = rest.dropFirst()
                }
                if head.isEmpty, let g = rest.first { head.append(g); rest = rest.dropFirst() }
                lines.append(head)
                word = String(rest)
                wordWidth = of(word)
            }
            line = word
            lineWidth = wordWidth
            lineHasWords = true
        }
        lines.append(line)
        return lines
    }

    @inline(__always)
    package static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
