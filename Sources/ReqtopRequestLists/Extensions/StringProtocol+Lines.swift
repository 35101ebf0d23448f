extension StringProtocol {
    /// The lines of a text file: split at `\n` and `\r\n`, without the line terminators (a line
    /// ending `\r\r\n` loses both carriage returns). Split on the bytes: splitting on `Character`s
    /// was a sixth of parsing a 100,000-request list.
    func splitLines() -> [String] {
        var text = String(self)
        return text.withUTF8 { TextLines.split($0).map(\.string) }
    }

    /// How many spaces and tabs the text starts with (its indentation, in characters).
    var leadingWhitespaceCount: Int {
        var count = 0
        for byte in utf8 {
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") else { break }
            count += 1
        }
        return count
    }
}
