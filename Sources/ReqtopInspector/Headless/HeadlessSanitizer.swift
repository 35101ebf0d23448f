/// Makes network-originated text (URLs, headers, reasons, error messages) safe for one terminal line.
///
/// Minimal stand-in for `ReqtopTerminalUI.Sanitizer.singleLine` (same rules): C0 controls become
/// Control Pictures (ESC → ␛), DEL → ␡, tab/CR/LF → space, C1 controls → U+FFFD, bidi controls
/// and the BOM are removed.
enum HeadlessSanitizer {
    static func singleLine(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80..<0xA0: out.append("\u{FFFD}")
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: break
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
