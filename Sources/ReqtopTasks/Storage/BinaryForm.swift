import FoundationEssentials
import ReqtopNetworking

/// Bytes a process writes and reads back itself (packed records, the HAR spill): no versioning;
/// integers as zigzag LEB128 varints, doubles as their 8 bytes, strings and bytes length-prefixed,
/// an optional's absence as a length or tag of its own.
struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func int(_ value: Int) {
        var zigzag = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
        while zigzag >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
            zigzag >>= 7
        }
        bytes.append(UInt8(zigzag))
    }

    /// 0 for nil; n ≥ 0 as n + 1, a negative n as itself.
    mutating func optionalInt(_ value: Int?) { int(value.map { $0 >= 0 ? $0 + 1 : $0 } ?? 0) }
    mutating func bool(_ value: Bool?) { bytes.append(value.map { $0 ? 2 : 1 } ?? 0) }
    mutating func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func optionalDouble(_ value: Double?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { double(value) }
    }

    mutating func string(_ value: String) {
        int(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    /// A nil string as the length −1.
    mutating func optionalString(_ value: String?) {
        guard let value else { return int(-1) }
        string(value)
    }

    mutating func data(_ value: Data) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func optionalData(_ value: Data?) {
        guard let value else { return int(-1) }
        data(value)
    }

    mutating func headers(_ headers: [HTTPHeader]) {
        int(headers.count)
        for header in headers {
            string(header.name)
            string(header.value)
        }
    }
}

/// Reads what `BinaryWriter` wrote; anything cut short or out of range is `Malformed`, never a crash.
struct BinaryReader {
    struct Malformed: Error {}

    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int() throws(Malformed) -> Int {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Malformed() }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
    }

    mutating func optionalInt() throws(Malformed) -> Int? {
        let value = try int()
        return value == 0 ? nil : (value > 0 ? value - 1 : value)
    }

    /// A count of things to read: never negative.
    mutating func count() throws(Malformed) -> Int {
        let value = try int()
        guard value >= 0 else { throw Malformed() }
        return value
    }

    mutating func bool() throws(Malformed) -> Bool? {
        switch try byte() {
        case 0: nil
        case 1: false
        case 2: true
        default: throw Malformed()
        }
    }

    mutating func double() throws(Malformed) -> Double {
        guard bytes.count - offset >= 8 else { throw Malformed() }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    mutating func optionalDouble() throws(Malformed) -> Double? { try byte() == 0 ? nil : try double() }

    mutating func raw(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard count >= 0, bytes.count - offset >= count else { throw Malformed() }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func optionalString() throws(Malformed) -> String? {
        let count = try int()
        return count < 0 ? nil : String(decoding: try raw(count), as: UTF8.self)
    }

    mutating func string() throws(Malformed) -> String {
        guard let value = try optionalString() else { throw Malformed() }
        return value
    }

    mutating func data() throws(Malformed) -> Data { Data(try raw(try int())) }

    mutating func optionalData() throws(Malformed) -> Data? {
        let count = try int()
        return count < 0 ? nil : Data(try raw(count))
    }

    mutating func headers() throws(Malformed) -> [HTTPHeader] {
        let count = try count()
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(min(count, 1024))
        for _ in 0..<count { headers.append(HTTPHeader(name: try string(), value: try string())) }
        return headers
    }

    /// A raw-value enum's case, from its raw value as a string.
    mutating func value<T: RawRepresentable<String>>(_: T.Type) throws(Malformed) -> T {
        guard let value = T(rawValue: try string()) else { throw Malformed() }
        return value
    }
}
