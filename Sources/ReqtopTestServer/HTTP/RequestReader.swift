import ReqtopHTTPModel
/// Why a request could not be read; each maps to a 4xx response before the connection closes.
enum RequestError: Error, Equatable {
    case malformedRequestLine
    case malformedHeader
    case headersTooLarge
    case bodyTooLarge
    case malformedChunk
    /// Bodies being read by all connections together would pass the server's budget.
    case busy

    var status: Int {
        switch self {
        case .headersTooLarge, .malformedRequestLine, .malformedHeader, .malformedChunk: return 400
        case .bodyTooLarge: return 413
        case .busy: return 503
        }
    }

    var explanation: String {
        switch self {
        case .malformedRequestLine: return "malformed request line (expected METHOD SP /target SP HTTP/1.x)"
        case .malformedHeader: return "malformed header line (expected Name: value)"
        case .headersTooLarge: return "request headers exceed \(RequestReader.maxHeaderBytes) bytes"
        case .bodyTooLarge: return "request body exceeds \(RequestReader.maxBodyBytes) bytes"
        case .malformedChunk: return "malformed chunked request body"
        case .busy: return "the server holds \(RequestReader.bodyBudget >> 20) MB of request bodies already: try again"
        }
    }
}

/// Reads HTTP/1.1 requests from a connection, keeping bytes that arrive early for the next request.
struct RequestReader {
    static let maxHeaderBytes = 64 * 1024
    /// One request body is read into memory up to this size (413 past it)…
    static let maxBodyBytes = 32 * 1024 * 1024
    /// …and all connections together hold at most this much (503 past it).
    static let bodyBudget = 256 * 1024 * 1024

    let socket: ClientSocket
    private var buffer: [UInt8] = []

    init(socket: ClientSocket) { self.socket = socket }

    /// Reads the next request head. Returns nil when the client closed cleanly between requests.
    mutating func readHead() throws -> ReceivedRequest? {
        var scanned = 0
        while true {
            if let end = Self.find(crlfcrlf, in: buffer, from: max(0, scanned - 3)) {
                guard end <= Self.maxHeaderBytes else { throw RequestError.headersTooLarge }
                let head = Array(buffer[0..<end])
                buffer.removeFirst(end + 4)
                return try Self.parseHead(head)
            }
            scanned = buffer.count
            if buffer.count > Self.maxHeaderBytes { throw RequestError.headersTooLarge }
            do {
                try socket.receive(into: &buffer)
            } catch ConnectionEnd.peerClosed where buffer.isEmpty {
                return nil
            }
        }
    }

    /// Reads the body announced by `request`'s headers.
    mutating func readBody(for request: ReceivedRequest) throws -> [UInt8] {
        if request.header("Transfer-Encoding")?.lowercased().containsBytes("chunked") == true {
            return try readChunkedBody()
        }
        guard let lengthText = request.header("Content-Length") else { return [] }
        guard let length = Int(lengthText.trimmingWhitespace()), length >= 0 else {
            throw RequestError.malformedHeader
        }
        guard length <= Self.maxBodyBytes else { throw RequestError.bodyTooLarge }
        return try readExactly(length)
    }

    /// The most a body of `request` can take (its Content-Length, the cap for a chunked one), or 0.
    static func bodyReservation(for request: ReceivedRequest) -> Int {
        if request.header("Transfer-Encoding")?.lowercased().containsBytes("chunked") == true { return maxBodyBytes }
        return min(maxBodyBytes, Int(request.header("Content-Length")?.trimmingWhitespace() ?? "0") ?? 0)
    }

    private mutating func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try socket.receive(into: &buffer) }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private mutating func readLine() throws -> String {
        while true {
            if let end = Self.find(crlf, in: buffer, from: 0) {
                let line = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            if buffer.count > Self.maxHeaderBytes { throw RequestError.malformedChunk }
            try socket.receive(into: &buffer)
        }
    }

    private mutating func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingWhitespace(), radix: 16), size >= 0 else {
                throw RequestError.malformedChunk
            }
            if size == 0 {
                while try !readLine().isEmpty {}  // trailers
                return body
            }
            guard size <= Self.maxBodyBytes - body.count else { throw RequestError.bodyTooLarge } // never overflows
            body += try readExactly(size)
            guard try readLine().isEmpty else { throw RequestError.malformedChunk }
        }
    }

    static func parseHead(_ head: [UInt8]) throws -> ReceivedRequest {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3,
              !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter),
              parts[1].hasPrefix("/") || parts[1].hasPrefix("http://"),
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
        else { throw RequestError.malformedRequestLine }

        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw RequestError.malformedHeader }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { throw RequestError.malformedHeader }
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            headers.append(HTTPHeader(name: String(name), value: value))
        }
        var target = String(parts[1])
        if target.hasPrefix("http://"), let slash = target.dropFirst(7).firstIndex(of: "/") {
            target = String(target[slash...])
        }
        return ReceivedRequest(method: String(parts[0]), target: target, version: String(parts[2]), headers: headers,
                               rawHead: lines)
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let scalar = character.unicodeScalars.first else { return false }
        if character.isLetter || character.isNumber { return true }
        return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index] == needle[0] && haystack[index + 1] == needle[1]
            && (needle.count == 2 || (haystack[index + 2] == needle[2] && haystack[index + 3] == needle[3])) {
            return index
        }
        return nil
    }
}

private let crlf: [UInt8] = [13, 10]
private let crlfcrlf: [UInt8] = [13, 10, 13, 10]
