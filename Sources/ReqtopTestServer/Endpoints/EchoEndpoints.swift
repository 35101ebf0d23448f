import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Endpoints that describe the request back as JSON: `/get`, `/post` and friends, `/delay`, `/gzip`.
enum EchoEndpoints {
    static func get(_ exchange: Exchange) throws -> Disposition {
        try exchange.respondJSON(EchoFields.getDocument(exchange))
    }

    /// `/post`, `/put`, `/patch`, `/delete`, `/anything`: httpbin's fields plus `method`, `body_size`, `sha256`.
    static func bodyEcho(_ exchange: Exchange) throws -> Disposition {
        let request = exchange.request
        var document = EchoFields.getDocument(exchange)
        document["method"] = request.method
        document["data"] = EchoFields.data(request)
        document["json"] = EchoFields.json(request)
        document["form"] = EchoFields.form(request)
        document["files"] = [String: Any]()
        document["body_size"] = request.body.count
        document["sha256"] = SHA256.hex(of: request.body)
        return try exchange.respondJSON(document)
    }

    /// `/echo/head`: the request head exactly as received, one line per request line and header
    /// line (order, case and duplicates kept), as `text/plain`; then the body size. Any method.
    static func rawHead(_ exchange: Exchange) throws -> Disposition {
        let text = exchange.request.rawHead.joined(separator: "\n") + "\n\nbody: \(exchange.request.body.count) bytes\n"
        return try exchange.respondText(text)
    }

    /// `/delay/{seconds}`: waits, then answers like `/get`. Fractional seconds are honoured.
    static func delay(_ exchange: Exchange, seconds text: String) throws -> Disposition {
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            return try Router.badRequest(exchange, "delay \(text): not a number of seconds")
        }
        switch exchange.socket.wait(seconds: seconds) {
        case .elapsed: break
        case .clientClosed: return .close
        case .serverStopping: throw ConnectionEnd.serverStopping
        }
        var document = EchoFields.getDocument(exchange)
        document["data"] = EchoFields.data(exchange.request)
        document["form"] = EchoFields.form(exchange.request)
        document["files"] = [String: Any]()
        return try exchange.respondJSON(document)
    }

    /// `/gzip`: JSON compressed with gzip, `Content-Encoding: gzip`.
    static func gzip(_ exchange: Exchange) throws -> Disposition {
        let document: [String: Any] = [
            "gzipped": true,
            "headers": EchoFields.headers(exchange.request),
            "method": exchange.request.method,
            "origin": exchange.origin,
        ]
        return try exchange.respond(
            status: 200,
            headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
            body: Gzip.compress(JSONBody.encode(document))
        )
    }
}
