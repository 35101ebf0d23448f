import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes one JSON object field by field into a `ByteSink`; the caller supplies the fields in
/// sorted key order.
struct JSONObjectWriter {
    private let sink: ByteSink
    private var first = true

    init(capacity: Int = 512) {
        self.init(appendingTo: ByteSink(capacity: capacity))
    }

    /// An object written after what `sink` holds (a batch of lines in one buffer); `finish()` closes it.
    init(appendingTo sink: ByteSink) {
        self.sink = sink
        sink.append(UInt8(ascii: "{"))
    }

    /// Closes the object (in the sink it was written to).
    func finish() {
        sink.append(UInt8(ascii: "}"))
    }

    /// Closes the object and appends it to `buffer` (for an object with a sink of its own).
    mutating func finish(into buffer: inout [UInt8]) {
        finish()
        sink.withBytes { buffer.append(contentsOf: $0) }
    }

    /// A nested object as the value of `name`, its fields written by `fields` (in sorted order).
    mutating func object(_ name: StaticString, _ fields: (inout JSONObjectWriter) -> Void) {
        key(name)
        sink.append(UInt8(ascii: "{"))
        first = true
        fields(&self)
        first = false
        sink.append(UInt8(ascii: "}"))
    }

    /// Keys are literals of plain ASCII letters (no escaping needed), copied as they are.
    mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        let out = sink.reserve(length + 4)
        var index = 0
        if !first {
            out[0] = UInt8(ascii: ",")
            index = 1
        }
        first = false
        out[index] = UInt8(ascii: "\"")
        (out + index + 1).initialize(from: name.utf8Start, count: length)
        out[index + 1 + length] = UInt8(ascii: "\"")
        out[index + 2 + length] = UInt8(ascii: ":")
        sink.commit(index + 3 + length)
    }

    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        sink.appendQuoted(value)
    }

    mutating func number<I: FixedWidthInteger & SignedInteger>(_ name: StaticString, _ value: I) {
        key(name)
        sink.appendDecimal(Int64(value))
    }

    /// As `JSONSerialization` writes a `Double`: its shortest description without a trailing `.0`;
    /// non-finite values (which `JSONSerialization` refuses) become `null`.
    mutating func number(_ name: StaticString, _ value: Double) {
        key(name)
        guard value.isFinite else { return sink.append("null") }
        // A whole number (not -0, which keeps its sign) is its digits: no string made.
        if value == value.rounded(), value.magnitude < 1e15, value != 0 || value.sign == .plus {
            return sink.appendDecimal(Int64(value))
        }
        // A number of whole microseconds (libcurl's timings in milliseconds, event times) is its digits:
        // between 0.001 and 2^32 two such numbers are further apart than a Double's spacing, so these
        // digits, trailing zeros dropped, are the shortest that read back as `value` — `description`'s.
        let micros = (value * 1_000_000).rounded()
        if value.magnitude >= 0.001, value.magnitude < 4_294_967_296, micros / 1_000_000 == value {
            if value < 0 { sink.append(UInt8(ascii: "-")) }
            let whole = Int64(micros.magnitude) / 1_000_000
            var fraction = Int64(micros.magnitude) % 1_000_000, digits = 6
            sink.appendDecimal(whole)
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let out = sink.reserve(digits + 1)
            out[0] = UInt8(ascii: ".")
            for index in stride(from: digits, to: 0, by: -1) {
                out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                fraction /= 10
            }
            sink.commit(digits + 1)
            return
        }
        // Otherwise `description`'s digits (handed over as ASCII, no string made).
        var ascii = ASCIISink()
        value.write(to: &ascii)
        if ascii.bytes.count >= 2, ascii.bytes[ascii.bytes.count - 2] == UInt8(ascii: "."), ascii.bytes.last == UInt8(ascii: "0") {
            ascii.bytes.removeLast(2)
        }
        sink.append(ascii.bytes)
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
        sink.append(UInt8(ascii: "["))
        for (index, header) in headers.enumerated() {
            if index > 0 { sink.append(UInt8(ascii: ",")) }
            sink.append(UInt8(ascii: "["))
            sink.appendQuoted(header.name)
            sink.append(UInt8(ascii: ","))
            sink.appendQuoted(header.value)
            sink.append(UInt8(ascii: "]"))
        }
        sink.append(UInt8(ascii: "]"))
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
        sink.append(UInt8(ascii: "["))
        for (index, timings) in list.enumerated() {
            if index > 0 { sink.append(UInt8(ascii: ",")) }
            guard let timings else { sink.append("null"); continue }
            sink.append(UInt8(ascii: "{"))
            first = true
            timingFields(timings)
            sink.append(UInt8(ascii: "}"))
        }
        first = false
        sink.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        sink.append(value ? "true" : "false")
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
                inner.sink.append(UInt8(ascii: "["))
                for (index, name) in omitted.enumerated() {
                    if index > 0 { inner.sink.append(UInt8(ascii: ",")) }
                    inner.sink.appendQuoted(name)
                }
                inner.sink.append(UInt8(ascii: "]"))
            }
            if let timeout = o.timeout { inner.number("timeout", timeout) }
            if let trusted = o.trustedRedirects { inner.bool("trustedRedirects", trusted) }
        }
    }

    /// The object as text, closed (the writer is done).
    func finished() -> String {
        sink.append(UInt8(ascii: "}"))
        return sink.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
