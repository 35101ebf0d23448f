/// Takes a request body out of the bytes a client sends, as they arrive: a counted body, or the
/// chunked coding (sizes, extensions and trailers removed).
struct BodyDecoder {
    private enum State {
        case counted(remaining: Int64)
        case chunkSize
        case chunkData(remaining: Int64)
        case chunkDataEnd
        case trailers
        case done
    }

    private var state: State
    /// Bytes of an incomplete line (a chunk size or trailer) carried to the next call.
    private var line: [UInt8] = []

    init(_ framing: BodyFraming) {
        switch framing {
        case .none: state = .done
        case .length(let n): state = .counted(remaining: n)
        case .chunked: state = .chunkSize
        }
    }

    var isDone: Bool { if case .done = state { true } else { false } }

    /// Decodes from `input`: returns how many input bytes were used (the rest belongs to the next
    /// request) and hands body bytes to `output`. Throws on a malformed chunked coding.
    mutating func decode(_ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) -> Void) throws(ProxyError) -> Int {
        var i = 0
        while i < input.count {
            switch state {
            case .done:
                return i
            case .counted(let remaining), .chunkData(let remaining):
                let n = Int(min(Int64(input.count - i), remaining))
                output(UnsafeRawBufferPointer(rebasing: input[i..<i + n]))
                i += n
                if case .counted = state {
                    state = remaining == Int64(n) ? .done : .counted(remaining: remaining - Int64(n))
                } else {
                    state = remaining == Int64(n) ? .chunkDataEnd : .chunkData(remaining: remaining - Int64(n))
                }
            case .chunkSize, .chunkDataEnd, .trailers:
                guard let newline = input[i...].firstIndex(of: 0x0A) else {
                    line.append(contentsOf: input[i...])
                    guard line.count <= 8192 else { throw ProxyError("malformed chunked body: a chunk-size or trailer line longer than 8 KB") }
                    return input.count
                }
                line.append(contentsOf: input[i..<newline])
                i = newline + 1
                if line.last == 0x0D { line.removeLast() }
                let text = line
                line.removeAll(keepingCapacity: true)
                try endOfLine(text)
            }
        }
        return i
    }

    /// Whether a first chunk-size line has been read whole and found good (a chunked request is
    /// not sent on before that: a malformed one is refused with nothing sent upstream).
    private(set) var hasReadAChunkSize = false

    private mutating func endOfLine(_ text: [UInt8]) throws(ProxyError) {
        switch state {
        case .chunkSize:
            let size = try Self.chunkSize(text)
            hasReadAChunkSize = true
            state = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkDataEnd:
            guard text.isEmpty else { throw ProxyError("malformed chunked body: chunk data longer than its chunk size") }
            state = .chunkSize
        case .trailers:
            if text.isEmpty { state = .done; return } // trailer fields are dropped: they cannot be forwarded after the body went
            // field-name ":" OWS field-value (RFC 9112 §7.1.2, §5): a name of token characters, no folding.
            guard let colon = text.firstIndex(of: 0x3A), colon > 0, text[..<colon].allSatisfy(Self.isToken) else {
                throw ProxyError("malformed chunked body: trailer line is not 'Name: value': \(Self.quoted(text))")
            }
        default:
            break
        }
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1): 1–15 hex digits (a size that fits in 60 bits; no
    /// sign), then `;name[=value]` extensions with optional blanks around them.
    private static func chunkSize(_ text: [UInt8]) throws(ProxyError) -> Int64 {
        let digits = text.prefix { isHex($0) }
        guard !digits.isEmpty else {
            throw ProxyError("malformed chunked body: chunk size is not hexadecimal: \(quoted(text))")
        }
        guard digits.count <= 15, let size = Int64(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw ProxyError("malformed chunked body: chunk size \(quoted(digits)) is too large (more than 15 hex digits)")
        }
        var rest = text[digits.endIndex...]
        func skipBlanks() { rest = rest.drop { $0 == 0x20 || $0 == 0x09 } }
        skipBlanks()
        while let first = rest.first {
            guard first == 0x3B else {
                throw ProxyError("malformed chunked body: unexpected \(quoted(rest)) after chunk size \(quoted(digits))")
            }
            rest = rest.dropFirst()
            skipBlanks()
            let name = rest.prefix(while: isToken)
            guard !name.isEmpty else { throw ProxyError("malformed chunked body: chunk extension without a name: \(quoted(text))") }
            rest = rest[name.endIndex...]
            skipBlanks()
            if rest.first == 0x3D { // "=" token / quoted-string
                rest = rest.dropFirst()
                skipBlanks()
                if rest.first == 0x22 {
                    var index = rest.index(after: rest.startIndex)
                    var closed = false
                    while index < rest.endIndex {
                        if rest[index] == 0x5C { index = rest.index(index, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex; continue }
                        if rest[index] == 0x22 { closed = true; break }
                        index += 1
                    }
                    guard closed else { throw ProxyError("malformed chunked body: unterminated quoted chunk extension value: \(quoted(text))") }
                    rest = rest[(index + 1)...]
                } else {
                    let value = rest.prefix(while: isToken)
                    guard !value.isEmpty else { throw ProxyError("malformed chunked body: chunk extension without a value after '=': \(quoted(text))") }
                    rest = rest[value.endIndex...]
                }
                skipBlanks()
            }
        }
        return size
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// tchar (RFC 9110 §5.6.2).
    private static func isToken(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// At most 40 bytes of a line, quoted, control bytes as `?`.
    private static func quoted(_ bytes: some Collection<UInt8>) -> String {
        let shown = bytes.prefix(40).map { $0 < 0x20 || $0 >= 0x7F ? UInt8(ascii: "?") : $0 }
        return "'" + String(decoding: shown, as: UTF8.self) + (bytes.count > 40 ? "…" : "") + "'"
    }
}
