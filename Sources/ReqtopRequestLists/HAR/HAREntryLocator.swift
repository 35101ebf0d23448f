/// Finds where each HAR entry's `"request"` member is written, so specs and decoding errors
/// from a HAR point at a line. Best effort: used only when one match per entry is found.
enum HAREntryLocator {
    /// 1-based (line, column) of every `"request":` key, in document order.
    static func requestKeys(in text: String) -> [(line: Int, column: Int)] {
        var result: [(Int, Int)] = []
        let needle = Array("\"request\"".utf8)
        let bytes = Array(text.utf8)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            } else if bytes[i] == needle[0], i + needle.count <= bytes.count, Array(bytes[i..<(i + needle.count)]) == needle,
                      i == 0 || bytes[i - 1] != UInt8(ascii: "\\") {
                var j = i + needle.count
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: ":") {
                    let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
                    result.append((line, column))
                }
                i += needle.count
                continue
            }
            i += 1
        }
        return result
    }

    /// The entry index a decoding error's coding path goes through, if any.
    static func entryIndex(in codingPath: [CodingKey]) -> Int? {
        for (k, key) in codingPath.enumerated() where key.stringValue == "entries" {
            if k + 1 < codingPath.count { return codingPath[k + 1].intValue }
        }
        return nil
    }
}
