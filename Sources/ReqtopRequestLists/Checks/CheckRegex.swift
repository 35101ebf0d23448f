/// The regular expressions of checks (Hurl's `matches`, `regex`, `replace`): the standard
/// library's `Regex`, matching Unicode scalars as ICU's expressions do (not grapheme clusters).
enum CheckRegex {
    /// The expression, or nil when `pattern` is not one.
    static func make(_ pattern: String) -> Regex<AnyRegexOutput>? {
        (try? Regex(pattern))?.matchingSemantics(.unicodeScalar)
    }
}
