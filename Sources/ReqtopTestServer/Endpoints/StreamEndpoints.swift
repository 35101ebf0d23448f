/// `/sse` and `/ndjson`: responses that arrive as a stream of messages over time, chunked.
enum StreamEndpoints {
    /// `/sse?count=10&interval=0.5&event=tick&size=0`: `count` server-sent events, one every
    /// `interval` seconds (the first at once), each `id: N`, `event: EVENT` (none when empty) and
    /// `data: {"n":N,"of":COUNT}` — padded with a `"pad"` member to `size` bytes of data when asked.
    static func sse(_ exchange: Exchange) throws -> Disposition {
        guard let (count, interval, size) = parameters(exchange, defaultCount: 10, defaultInterval: "0.5") else {
            return try Router.badRequest(exchange, "sse: count (0...1000000), interval (seconds >= 0) and size (0...200000000) expected")
        }
        let event = exchange.request.queryValue("event") ?? "tick"
        try exchange.sendChunkedHead(headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")])
        for n in 1...max(1, count) where count > 0 {
            if n > 1 { try ByteEndpoints.wait(exchange, seconds: interval) }
            var message = "id: \(n)\n" + (event.isEmpty ? "" : "event: \(event)\n") + "data: "
            try send(message, exchange)
            try sendData(n: n, of: count, size: size, exchange)
            message = "\n\n"
            try send(message, exchange)
        }
        return try exchange.finishChunks()
    }

    /// `/ndjson?count=5&interval=0&size=0`: `count` lines of JSON (`{"n":N,"event":"tick"}`), one every
    /// `interval` seconds, as `application/x-ndjson`.
    static func ndjson(_ exchange: Exchange) throws -> Disposition {
        guard let (count, interval, _) = parameters(exchange, defaultCount: 5, defaultInterval: "0") else {
            return try Router.badRequest(exchange, "ndjson: count (0...1000000) and interval (seconds >= 0) expected")
        }
        try exchange.sendChunkedHead(headers: [("Content-Type", "application/x-ndjson")])
        for n in 1...max(1, count) where count > 0 {
            if n > 1 { try ByteEndpoints.wait(exchange, seconds: interval) }
            try send(#"{"n":\#(n),"event":"tick"}"# + "\n", exchange)
        }
        return try exchange.finishChunks()
    }

    private static func parameters(_ exchange: Exchange, defaultCount: Int, defaultInterval: String) -> (Int, Double, Int)? {
        let request = exchange.request
        guard let count = Int(request.queryValue("count") ?? String(defaultCount)), (0...1_000_000).contains(count),
              let interval = Double(request.queryValue("interval") ?? defaultInterval), interval >= 0, interval.isFinite,
              let size = Int(request.queryValue("size") ?? "0"), (0...200_000_000).contains(size) else { return nil }
        return (count, interval, size)
    }

    /// `{"n":N,"of":COUNT}`, or with a pad making it `size` bytes, sent in pieces of at most 1 MB.
    private static func sendData(n: Int, of count: Int, size: Int, _ exchange: Exchange) throws {
        let plain = #"{"n":\#(n),"of":\#(count)}"#
        let padded = #"{"n":\#(n),"of":\#(count),"pad":""#
        guard size > plain.utf8.count, size >= padded.utf8.count + 2 else { return try send(plain, exchange) }
        try send(padded, exchange)
        var left = size - padded.utf8.count - 2
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: min(left, 1 << 20))
        while left > 0 {
            let piece = min(left, block.count)
            try block.withUnsafeBytes { try exchange.sendChunk(UnsafeRawBufferPointer(rebasing: $0[..<piece])) }
            left -= piece
        }
        try send("\"}", exchange)
    }

    private static func send(_ text: String, _ exchange: Exchange) throws {
        var text = text
        try text.withUTF8 { try exchange.sendChunk(UnsafeRawBufferPointer($0)) }
    }
}
