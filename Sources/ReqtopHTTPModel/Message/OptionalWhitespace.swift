/// HTTP's optional whitespace (RFC 9110 §5.6.3: spaces and horizontal tabs), trimmed without
/// Foundation: on the engine thread, once per response, Foundation's trimming bridged every value.
extension StringProtocol {
    /// The text without spaces and tabs at either end.
    public var trimmingOptionalWhitespace: SubSequence {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
