import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopHTTPModel

/// A client's request head as it arrived: request line and header fields in order, names in
/// their case, duplicates kept.
struct ClientRequestHead {
    var method: String
    /// As written: absolute-form (`http://host/path`), authority-form (`host:443`, CONNECT) or origin-form (`/path`).
    var target: String
    /// "1.1" or "1.0".
    var version: String
    var headers: [HTTPHeader]
    /// Bytes of the head on the wire, blank line included.
    var size: Int

    var isHTTP10: Bool { version == "1.0" }

    /// Whether the client asked to close the connection after this exchange (RFC 9112 §9.3).
    var wantsClose: Bool {
        let tokens = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWhitespace().lowercased() }
        if tokens.contains("close") { return true }
        return isHTTP10 && !tokens.contains("keep-alive")
    }

    var expectsContinue: Bool {
        headers.value(for: "Expect")?.trimmingWhitespace().lowercased() == "100-continue"
    }
}

/// How a request body is delimited (RFC 9112 §6.3).
enum BodyFraming: Equatable {
    case none
    case length(Int64)
    case chunked
}

/// Parses request heads from the bytes a client sent.
enum RequestHeadParser {
    /// A head longer than this gets 431.
    static let maxHeadBytes = 64 * 1024

    enum Outcome {
        case incomplete
        case head(ClientRequestHead, consumed: Int)
        /// The status to answer with (400, 431, 501, 505) and why, in words.
        case malformed(status: Int, reason: String)
    }

    /// Parses the head at the start of `bytes`; leading empty lines are skipped (RFC 9112 §2.2).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        var start = 0
        while start < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        guard let end = headEnd(bytes, from: start) else {
            return bytes.count - start > maxHeadBytes
                ? .malformed(status: 431, reason: "the request head is longer than \(maxHeadBytes) bytes") : .incomplete
        }
        guard end.lineStart - start <= maxHeadBytes else {
            return .malformed(status: 431, reason: "the request head is longer than \(maxHeadBytes) bytes")
        }
        var lines: [Substring] = []
        // Lines split on bytes: as Characters, CR LF is one grapheme and never equals "\n".
        for raw in UnsafeRawBufferPointer(rebasing: bytes[start..<end.lineStart]).split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = raw.last == 0x0D ? raw.dropLast() : raw[...]
            lines.append(Substring(String(decoding: line, as: UTF8.self)))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return .malformed(status: 400, reason: "no request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty else {
            return .malformed(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.x: \(requestLine.prefix(80))")
        }
        let method = String(parts[0])
        guard HTTPRequest.isValidMethod(method) else { return .malformed(status: 400, reason: "the method is not a token") }
        guard parts[2].hasPrefix("HTTP/") else { return .malformed(status: 400, reason: "the request line does not end in HTTP/1.x") }
        let version = String(parts[2].dropFirst(5))
        guard version == "1.1" || version == "1.0" else {
            return .malformed(status: 505, reason: "HTTP/\(version.prefix(10)) is not spoken here (HTTP/1.1 and 1.0 are)")
        }
        let target = String(parts[1])
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .malformed(status: 400, reason: "the request target has a control, space or non-ASCII byte")
        }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                return .malformed(status: 400, reason: "obsolete line folding in the header section")
            }
            guard let colon = line.firstIndex(of: ":") else {
                return .malformed(status: 400, reason: "a header line without a colon: \(line.prefix(80))")
            }
            let name = String(line[..<colon])
            guard HTTPRequest.isValidMethod(name) else {
                return .malformed(status: 400, reason: "a header name that is not a token: \(name.prefix(80))")
            }
            let value = line[line.index(after: colon)...].trimmingASCII(" \t")
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                return .malformed(status: 400, reason: "a control character in the value of \(name)")
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        let head = ClientRequestHead(method: method, target: target, version: version, headers: headers,
                                     size: end.afterBlank - start)
        return .head(head, consumed: end.afterBlank)
    }

    /// Where the blank line that ends the head is: the start of the blank line, and just after it.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (lineStart: Int, afterBlank: Int)? {
        var i = start
        let limit = min(bytes.count, start + maxHeadBytes + 4)
        while i < limit {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return (i + 1, i + 2) }
                if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { return (i + 1, i + 3) }
            }
            i += 1
        }
        return nil
    }

    /// How the body of `head` is delimited, or why it cannot be read (RFC 9112 §6.3: both
    /// Transfer-Encoding and Content-Length, differing lengths, a coding other than chunked).
    static func framing(of head: ClientRequestHead) -> Result<BodyFraming, ProxyError> {
        let codings = head.headers.values(for: "Transfer-Encoding")
        let lengths = head.headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWhitespace() }
        if !codings.isEmpty {
            if !lengths.isEmpty { return .failure(ProxyError("both Transfer-Encoding and Content-Length")) }
            let all = codings.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }
            guard all == ["chunked"], !head.isHTTP10 else {
                // Another coding would have to be forwarded as it is, and this proxy removes the chunking.
                return .failure(ProxyError("a Transfer-Encoding other than chunked is not forwarded: \(codings.joined(separator: ", "))",
                                           status: 501))
            }
            return .success(.chunked)
        }
        guard let first = lengths.first else { return .success(.none) }
        guard lengths.allSatisfy({ $0 == first }) else {
            return .failure(ProxyError("Content-Length values differ: \(lengths.joined(separator: ", "))"))
        }
        guard first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), first.count <= 18, let length = Int64(first) else {
            return .failure(ProxyError("Content-Length is not a number: \(first.prefix(40))"))
        }
        return .success(length == 0 ? .none : .length(length))
    }
}
