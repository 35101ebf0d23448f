/// Fault injection under `/fault/`: responses that break HTTP on purpose, to test clients.
///
/// - `/fault/reset?after=N`: announces `Content-Length: N + 1000000`, sends N body bytes (default 1024),
///   then closes with SO_LINGER {1, 0} so the client sees a TCP reset.
/// - `/fault/stall?seconds=S`: reads the request, sends nothing for S seconds (default 3600; ends early
///   when the client closes or the server stops), then closes.
/// - `/fault/truncated-chunked`: a chunked body of three chunks, then close without the 0-size chunk.
/// - `/fault/bad-status`: the status line `HTTP/1.1 abc Broken`.
/// - `/fault/huge-header`: one response header, `X-Huge`, with a 1 MiB value.
/// - `/fault/escape`: header values and a text/plain body carrying ESC/CSI (`ESC[31m`), an OSC title
///   set (`ESC]0;pwned BEL`), U+202E and the invalid UTF-8 bytes FF FE, all verbatim.
/// - `/fault/slow-head?interval=S`: sends a 200 response head one byte every S seconds (default 1;
///   the head is 40 bytes), then the body `ok`: a server slow, not idle.
/// - `/fault/drip-forever`: 200 without Content-Length, one '*' every 100 ms until the client leaves
///   or the server stops.
enum FaultEndpoints {
    static func respond(to exchange: Exchange, fault: String) throws -> Disposition {
        switch fault {
        case "reset": return try reset(exchange)
        case "stall": return try stall(exchange)
        case "truncated-chunked": return try truncatedChunked(exchange)
        case "bad-status": return try badStatus(exchange)
        case "huge-header": return try hugeHeader(exchange)
        case "escape": return try escape(exchange)
        case "drip-forever": return try dripForever(exchange)
        case "slow-head": return try slowHead(exchange)
        default: return try Router.notFound(exchange)
        }
    }

    private static func reset(_ exchange: Exchange) throws -> Disposition {
        let text = exchange.request.queryValue("after") ?? "1024"
        guard let after = Int(text), (0...100_000_000).contains(after) else {
            return try Router.badRequest(exchange, "reset: after \(text) is not a byte count")
        }
        try exchange.sendHead(status: 200, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Length", String(after + 1_000_000)),
        ])
        if after > 0 { try exchange.socket.send(DeterministicBytes.prefix(after)) }
        return .reset
    }

    private static func stall(_ exchange: Exchange) throws -> Disposition {
        let text = exchange.request.queryValue("seconds") ?? "3600"
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            return try Router.badRequest(exchange, "stall: seconds \(text) is not a number")
        }
        try ByteEndpoints.wait(exchange, seconds: seconds)
        return .close
    }

    private static func truncatedChunked(_ exchange: Exchange) throws -> Disposition {
        try exchange.sendChunkedHead(headers: [("Content-Type", "text/plain")])
        for index in 1...3 {
            try Array("chunk \(index)\n".utf8).withUnsafeBytes { raw in
                try exchange.sendChunk(raw)
            }
        }
        return .close
    }

    private static func badStatus(_ exchange: Exchange) throws -> Disposition {
        try exchange.socket.send(
            "HTTP/1.1 abc Broken\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbad"
        )
        return .close
    }

    private static func hugeHeader(_ exchange: Exchange) throws -> Disposition {
        try exchange.sendHead(status: 200, headers: [
            ("X-Huge", String(repeating: "a", count: 1 << 20)),
            ("Content-Type", "text/plain"), ("Content-Length", "3"),
        ])
        try exchange.socket.send("ok\n")
        return .close
    }

    /// The hostile text of `/fault/escape`, as raw bytes.
    static let escapePayload: [UInt8] =
        Array("\u{1B}[31mred\u{1B}[0m \u{1B}]0;pwned\u{07} \u{202E}gnp.exe ".utf8) + [0xFF, 0xFE]

    private static func escape(_ exchange: Exchange) throws -> Disposition {
        let body = Array("body: ".utf8) + escapePayload + Array("\n".utf8)
        var head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n".utf8)
        head += Array("X-Escape: ".utf8) + escapePayload + [13, 10]
        head += Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        try exchange.socket.send(head + body)
        return .close
    }

    private static func slowHead(_ exchange: Exchange) throws -> Disposition {
        let text = exchange.request.queryValue("interval") ?? "1"
        guard let interval = Double(text), interval >= 0, interval <= 60 else {
            return try Router.badRequest(exchange, "slow-head: interval \(text) is not a number of seconds up to 60")
        }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n".utf8)
        for byte in head {
            try exchange.socket.send([byte])
            try ByteEndpoints.wait(exchange, seconds: interval)
        }
        try exchange.socket.send("ok")
        return .close
    }

    private static func dripForever(_ exchange: Exchange) throws -> Disposition {
        try exchange.socket.send("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n")
        while true {
            try exchange.socket.send([UInt8(ascii: "*")])
            try ByteEndpoints.wait(exchange, seconds: 0.1)
        }
    }
}
