extension DefaultStringInterpolation {
    /// `value` in single quotes, cut as `Excerpt.of` cuts it: `"unknown variable \(quoting: name)"`.
    mutating func appendInterpolation(quoting value: some StringProtocol) {
        appendLiteral("'" + Excerpt.of(value) + "'")
    }
}
