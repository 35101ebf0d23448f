import Foundation

/// Writes one JSON object field by field; the caller supplies the fields in sorted key order.
struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var first = true

    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Writes the object after what `buffer` holds; `finish(into:)` hands the buffer back.
    init(appendingTo buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and gives the buffer back to `buffer` (see `init(appendingTo:)`).
    mutating func finish(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    /// A nested object as the value of `name`, its fields written by `fields` (in sorted order).
    mutating func object(_ name: StaticString, _ fields: (inout JSONObjectWriter) -> Void) {
        key(name)
        bytes.append(UInt8(ascii: "{"))
        first = true
        fields(&self)
        first = false
        bytes.append(UInt8(ascii: "}"))
    }

    /// Keys are literals of plain ASCII letters (no escaping needed), copied as they are.
    mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        JSONEscaping.appendQuoted(value, to: &bytes)
    }

    mutating func number<I: FixedWidthInteger & SignedInteger>(_ name: StaticString, _ value: I) {
        key(name)
        Self.appendDecimal(Int64(value), to: &bytes)
    }

    /// The decimal digits of `value`, written into the buffer (no string made).
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// As `JSONSerialization` writes a `Double`: its shortest description without a trailing `.0`;
    /// non-finite values (which `JSONSerialization` refuses) become `null`.
    mutating func number(_ name: StaticString, _ value: Double) {
        key(name)
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        // A whole number (not -0, which keeps its sign) is its digits: no string made.
        if value == value.rounded(), value.magnitude < 1e15, value != 0 || value.sign == .plus {
            return Self.appendDecimal(Int64(value), to: &bytes)
        }
        // A number of whole microseconds (libcurl's timings in milliseconds, event times) is its digits:
        // between 0.001 and 2^32 two such numbers are further apart than a Double's spacing, so these
        // digits, trailing zeros dropped, are the shortest that read back as `value` — `description`'s.
        let micros = (value * 1_000_000).rounded()
        if value.magnitude >= 0.001, value.magnitude < 4_294_967_296, micros / 1_000_000 == value {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            let whole = Int64(micros.magnitude) / 1_000_000
            var fraction = Int64(micros.magnitude) % 1_000_000, digits = 6
            Self.appendDecimal(whole, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
            return
        }
        // Otherwise `description`'s digits, written straight into the buffer (no string made).
        var sink = ASCIISink()
        swap(&sink.bytes, &bytes)
        let start = sink.bytes.count
        value.write(to: &sink)
        swap(&sink.bytes, &bytes)
        if bytes.count - start >= 2, bytes[bytes.count - 2] == UInt8(ascii: "."), bytes[bytes.count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Where `Double.write(to:)` puts its digits: the standard library hands them over as ASCII bytes.
    private struct ASCIISink: TextOutputStream {
        var bytes: [UInt8] = []
        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    /// Header fields as an ordered list of `[name, value]` pairs.
    mutating func headers(_ name: StaticString, _ headers: [HTTPHeader]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, header) in headers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            JSONEscaping.appendQuoted(header.name, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONEscaping.appendQuoted(header.value, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Phase timings in ms as an object (as they are: `EventLine` rounds those of plain lines).
    mutating func timings(_ name: StaticString, _ t: PhaseTimings) {
        object(name) { $0.timingFields(t) }
    }

    private mutating func timingFields(_ t: PhaseTimings) {
        number("connect", t.connect)
        number("dns", t.dns)
        number("receive", t.receive)
        number("redirect", t.redirect)
        number("send", t.send)
        number("tls", t.tls)
        number("total", t.total)
        number("wait", t.wait)
    }

    /// A list of phase timings, `null` where one is unknown.
    mutating func timingsList(_ name: StaticString, _ list: [PhaseTimings?]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, timings) in list.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let timings else { bytes.append(contentsOf: "null".utf8); continue }
            bytes.append(UInt8(ascii: "{"))
            first = true
            timingFields(timings)
            bytes.append(UInt8(ascii: "}"))
        }
        first = false
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A request's options, each one set (not nil) as a field.
    mutating func options(_ name: StaticString, _ o: HTTPRequest.Options) {
        object(name) { inner in
            if let compressed = o.compressed { inner.bool("compressed", compressed) }
            if let follow = o.followRedirects { inner.bool("followRedirects", follow) }
            if let version = o.httpVersion { inner.string("httpVersion", version.rawValue) }
            if let insecure = o.insecure { inner.bool("insecure", insecure) }
            if let max = o.maxRedirects { inner.number("maxRedirects", max) }
            if let omitted = o.omittedHeaders {
                inner.key("omittedHeaders")
                inner.bytes.append(UInt8(ascii: "["))
                for (index, name) in omitted.enumerated() {
                    if index > 0 { inner.bytes.append(UInt8(ascii: ",")) }
                    JSONEscaping.appendQuoted(name, to: &inner.bytes)
                }
                inner.bytes.append(UInt8(ascii: "]"))
            }
            if let timeout = o.timeout { inner.number("timeout", timeout) }
            if let trusted = o.trustedRedirects { inner.bool("trustedRedirects", trusted) }
        }
    }

    func finished() -> String {
        var bytes = self.bytes
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
