import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a connection does once an endpoint has answered.
enum Disposition {
    /// Read the next request on the same connection.
    case keepAlive
    /// Close the connection normally (FIN).
    case close
    /// Close the connection with a TCP reset (RST).
    case reset
}

/// One request plus the means to answer it on its connection.
struct Exchange {
    let request: ReceivedRequest
    let socket: ClientSocket
    /// `host:port` the server listens on, for `url` fields and absolute redirects.
    let authority: String
    /// The client's address, httpbin's `origin`.
    let origin: String

    /// The absolute URL of the request, as httpbin reports it.
    var url: String { "http://\(request.header("Host") ?? authority)\(request.target)" }

    private var keepAlive: Bool { request.wantsKeepAlive }

    /// Sends a complete response with `Content-Length`; the body is omitted for `HEAD`.
    func respond(
        status: Int, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> Disposition {
        var all = headers
        all.append(("Content-Length", String(body.count)))
        try sendHead(status: status, headers: all)
        if request.method != "HEAD" && !body.isEmpty { try socket.send(body) }
        return keepAlive ? .keepAlive : .close
    }

    /// Sends a JSON document (pretty-printed, sorted keys, like httpbin).
    func respondJSON(
        _ object: [String: Any], status: Int = 200, headers: [(String, String)] = []
    ) throws -> Disposition {
        try respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: JSONBody.encode(object))
    }

    /// Sends a plain-text body.
    func respondText(_ text: String, status: Int = 200, headers: [(String, String)] = []) throws -> Disposition {
        try respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// Sends the status line and headers, adding `Server` and `Connection`.
    /// Streaming endpoints add their own `Content-Length` or `Transfer-Encoding`.
    func sendHead(status: Int, reason: String? = nil, headers: [(String, String)]) throws {
        var head = "HTTP/1.1 \(status) \(reason ?? StatusReason.phrase(for: status))\r\n"
        head += "Server: reqtop-testserver\r\n"
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try socket.send(head)
    }

    /// Sends the head of a chunked response.
    func sendChunkedHead(status: Int = 200, headers: [(String, String)]) throws {
        try sendHead(status: status, headers: headers + [("Transfer-Encoding", "chunked")])
    }

    /// Sends one chunk of a chunked body (empty input sends nothing).
    func sendChunk(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        try socket.send(String(bytes.count, radix: 16) + "\r\n")
        try socket.send(bytes)
        try socket.send("\r\n")
    }

    /// Sends the terminating zero-size chunk.
    func finishChunks() throws -> Disposition {
        try socket.send("0\r\n\r\n")
        return keepAlive ? .keepAlive : .close
    }
}

/// Reason phrases for the status line.
enum StatusReason {
    static func phrase(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Content Too Large"
        case 418: return "I'm a teapot"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status \(status)"
        }
    }
}
