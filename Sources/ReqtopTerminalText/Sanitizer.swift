/// Turns untrusted text (headers, bodies, URLs) into text that is safe to put in cells.
///
/// - C0 controls become Control Pictures (U+2400 + code, so ESC → ␛); DEL → ␡.
/// - In single-line text, tab, CR and LF become a space. In multi-line text LF splits lines,
///   CR LF counts as LF, and tab expands to the next multiple of 8 columns.
/// - C1 controls (U+0080–U+009F) → U+FFFD; bidi controls and the BOM are removed;
///   invalid UTF-8 → U+FFFD.
public enum Sanitizer {
    /// `text` made safe for one row of cells.
    public static func singleLine(_ text: String) -> String {
        if TextWidth.isPrintableASCII(text) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            default: appendSafe(scalar, to: &out)
            }
        }
        return String(out)
    }

    /// `text` made safe and split into lines, with tabs expanded to multiples of `tabWidth`.
    public static func lines(_ text: String, tabWidth: Int = 8) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var column = 0
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            switch scalar.value {
            case 0x0A:
                lines.append(String(line)); line = .init(); column = 0
            case 0x0D where i + 1 < scalars.count && scalars[i + 1].value == 0x0A:
                break
            case 0x09:
                let spaces = tabWidth - column % tabWidth
                line.append(contentsOf: String(repeating: " ", count: spaces).unicodeScalars)
                column += spaces
            default:
                var safe = String.UnicodeScalarView()
                appendSafe(scalar, to: &safe)
                line.append(contentsOf: safe)
                column += safe.reduce(0) { $0 + max(0, TextWidth.scalarWidth($1)) }
            }
            i += 1
        }
        lines.append(String(line))
        return lines
    }

    /// Untrusted bytes decoded as UTF-8 (invalid sequences → U+FFFD) and sanitized.
    /// - Parameters:
    ///   - bytes: the raw bytes.
    ///   - singleLine: true for one cell row; false keeps line breaks (joined with LF) and expands tabs.
    public static func sanitize<Bytes: Collection>(bytes: Bytes, singleLine: Bool) -> String where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        return singleLine ? Self.singleLine(text) : lines(text).joined(separator: "\n")
    }

    /// Whether `scalar` is a bidi control or BOM, which are dropped.
    static func isRemoved(_ value: UInt32) -> Bool {
        switch value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: return true
        default: return false
        }
    }

    private static func appendSafe(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        let v = scalar.value
        switch v {
        case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + v)!)
        case 0x7F: out.append("\u{2421}")
        case 0x80...0x9F: out.append("\u{FFFD}")
        default:
            if !isRemoved(v) { out.append(scalar) }
        }
    }
}
