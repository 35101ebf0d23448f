import FoundationEssentials

/// `application/x-www-form-urlencoded` encoding.
enum FormEncoding {
    /// Kept as they are: ASCII letters and digits, `-`, `.`, `_`, `*` (the WHATWG form set).
    private static func isKept(_ byte: UInt8) -> Bool {
        (PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: "~")) || byte == UInt8(ascii: "*")
    }

    static func encodeComponent(_ text: String) -> String {
        text.percentEncoded(keeping: isKept).replacingEvery("%20", with: "+")
    }

    static func encode(_ fields: [FormField]) -> String {
        fields.map { encodeComponent($0.name) + "=" + encodeComponent($0.value) }.joined(separator: "&")
    }

    static func decodeComponent(_ text: String) -> String {
        let spaced = text.replacingEvery("+", with: " ")
        return spaced.percentDecoded() ?? spaced
    }

    static func decode(_ text: String) -> [FormField] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return FormField(name: decodeComponent(String(parts[0])), value: parts.count > 1 ? decodeComponent(String(parts[1])) : "")
        }
    }
}
