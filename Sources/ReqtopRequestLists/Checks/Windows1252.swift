import FoundationEssentials

/// windows-1252 decoding (FoundationEssentials has no decoder for it): bytes 0x80–0x9F through
/// the code page's table, the five it leaves undefined as the C1 controls of the same value (as
/// WHATWG's encoding standard and browsers decode them), every other byte as Latin-1.
enum Windows1252 {
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func decode(_ data: Data) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in data {
            let value = byte >= 0x80 && byte <= 0x9F ? high[Int(byte - 0x80)] : UInt32(byte)
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }
}
