/// `hexdump -C`-style lines for binary content: `00000000  48 65 6c 6c …  |Hell…|`.
public enum HexDump {
    /// Number of 16-byte lines needed for `count` bytes.
    public static func lineCount(byteCount: Int) -> Int { (byteCount + 15) / 16 }

    /// Line `index` (bytes `16*index ..< 16*index+16`) of the dump of `bytes`.
    public static func line(_ index: Int, of bytes: [UInt8]) -> String {
        let start = index * 16
        let end = min(bytes.count, start + 16)
        var text = hex(start, digits: 8) + "  "
        for i in 0..<16 {
            if start + i < end { text += hex(Int(bytes[start + i]), digits: 2) + " " } else { text += "   " }
            if i == 7 { text += " " }
        }
        text += " |"
        for i in start..<max(start, end) {
            let b = bytes[i]
            text.append(b >= 0x20 && b < 0x7F ? Character(UnicodeScalar(b)) : ".")
        }
        return text + "|"
    }

    private static func hex(_ value: Int, digits: Int) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
