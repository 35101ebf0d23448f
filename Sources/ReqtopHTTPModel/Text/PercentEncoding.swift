/// Percent-encoding (RFC 3986 §2.1) without Foundation.
extension StringProtocol {
    /// The text with every `%XX` decoded, as Foundation's `removingPercentEncoding`: nil when a `%`
    /// is not followed by two hex digits or the decoded bytes are not UTF-8.
    public func percentDecoded() -> String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return String(self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// The text with every byte outside `unreserved` written as `%XX` (upper-case hex), as
    /// Foundation's `addingPercentEncoding(withAllowedCharacters:)`.
    public func percentEncoded(keeping allowed: (UInt8) -> Bool = PercentEncoding.isUnreserved) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in utf8 {
            if allowed(byte) { bytes.append(byte); continue }
            bytes.append(UInt8(ascii: "%"))
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Byte classes of percent-encoding.
public enum PercentEncoding {
    /// RFC 3986's unreserved characters: ASCII letters, digits, `-`, `.`, `_`, `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
        default: return false
        }
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}
