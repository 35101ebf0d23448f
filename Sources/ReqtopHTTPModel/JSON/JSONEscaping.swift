/// The one JSON string escaper: writes a string literal exactly as `JSONSerialization` with
/// `.withoutEscapingSlashes` does — `"` and `\` escaped, control characters as `\b \t \n \f \r`
/// or `\u00xx`, everything else as raw UTF-8.
public enum JSONEscaping {
    /// Appends `string` as a JSON string literal, quotes included.
    public static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { source in
            // Runs of bytes that need no escape are copied whole; most strings are one run, found
            // eight bytes at a time.
            var runStart = 0
            let clean = cleanPrefixLength(source)
            if clean == source.count {
                bytes.append(contentsOf: source)
                return
            }
            for index in clean..<source.count {
                let byte = source[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How many leading bytes of `source` need no escape, counted a word at a time: a word is passed
    /// over when none of its bytes is below 0x20, `"` or `\` (the usual bit test for a zero byte,
    /// which never misses one; the word that may hold one is looked at byte by byte).
    public static func cleanPrefixLength(_ source: UnsafeBufferPointer<UInt8>) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        guard let base = UnsafeRawPointer(source.baseAddress) else { return 0 }
        var index = 0
        while index + 8 <= source.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let control = (word &- ones &* 0x20) & ~word
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let flagged = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
            if flagged != 0 { break }
            index += 8
        }
        while index < source.count {
            let byte = source[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            index += 1
        }
        return index
    }

    /// `string` as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
