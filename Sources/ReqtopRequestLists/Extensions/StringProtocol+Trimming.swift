extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns (found on the bytes: they are ASCII).
    func trimmingWhitespace() -> String {
        let text = Substring(self)
        let bytes = text.utf8
        var start = bytes.startIndex, end = bytes.endIndex
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start == bytes.startIndex, end == bytes.endIndex, let whole = self as? String { return whole }
        return String(text[start..<end])
    }
}

extension Substring {
    func trimmingWhitespaceSubstring() -> String { String(self).trimmingWhitespace() }
}
