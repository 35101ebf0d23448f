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
                    guard line.count <= 8192 else { throw ProxyError("a chunk-size or trailer line longer than 8 KB") }
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

    private mutating func endOfLine(_ text: [UInt8]) throws(ProxyError) {
        switch state {
        case .chunkSize:
            let digits = text.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 } // ";" starts extensions
            let isHex: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(isHex), // no sign: Int64(_:radix:) would take "-1"
                  let size = Int64(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw ProxyError("a chunk size that is not hexadecimal: \(String(decoding: text.prefix(40), as: UTF8.self))")
            }
            state = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkDataEnd:
            guard text.isEmpty else { throw ProxyError("chunk data longer than its size") }
            state = .chunkSize
        case .trailers:
            if text.isEmpty { state = .done } // trailer fields are dropped: they cannot be forwarded after the body went
        default:
            break
        }
    }
}
