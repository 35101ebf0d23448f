/// `/bytes/{n}`, `/stream-bytes/{n}` and `/drip`: bodies generated on the fly, never held whole in memory.
enum ByteEndpoints {
    private static let blockSize = 64 * 1024

    /// `n` bytes of ``DeterministicBytes`` for `?seed=`, with `Content-Length`, sent in 64 KiB blocks;
    /// `?rate=` limits the speed to that many bytes per second (for a download slow enough to watch).
    static func bytes(_ exchange: Exchange, count text: String) throws -> Disposition {
        guard let count = Int(text), count >= 0 else {
            return try Router.badRequest(exchange, "bytes \(text): not a byte count")
        }
        guard let seed = seed(exchange) else { return try Router.badRequest(exchange, "seed: not an unsigned integer") }
        let rateText = exchange.request.queryValue("rate")
        let rate = rateText.flatMap(Double.init)
        if rateText != nil, !(rate.map { $0 > 0 && $0.isFinite } ?? false) {
            return try Router.badRequest(exchange, "rate: bytes per second, more than 0")
        }
        try exchange.sendHead(status: 200, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Length", String(count)),
        ])
        if exchange.request.method != "HEAD" {
            var stream = DeterministicBytes(seed: seed)
            var block = [UInt8](repeating: 0, count: blockSize)
            var remaining = count
            while remaining > 0 {
                let size = min(remaining, blockSize)
                try block.withUnsafeMutableBytes { raw in
                    let slice = UnsafeMutableRawBufferPointer(rebasing: raw[0..<size])
                    stream.fill(slice)
                    try exchange.socket.send(UnsafeRawBufferPointer(slice))
                }
                remaining -= size
                if let rate, remaining > 0 { try wait(exchange, seconds: Double(size) / rate) }
            }
        }
        return exchange.request.wantsKeepAlive ? .keepAlive : .close
    }

    /// The same bytes as `/bytes/{n}`, chunked, `chunk_size` bytes per chunk (default 10240).
    static func streamBytes(_ exchange: Exchange, count text: String) throws -> Disposition {
        guard let count = Int(text), count >= 0 else {
            return try Router.badRequest(exchange, "stream-bytes \(text): not a byte count")
        }
        guard let seed = seed(exchange) else { return try Router.badRequest(exchange, "seed: not an unsigned integer") }
        let chunkText = exchange.request.queryValue("chunk_size") ?? "10240"
        guard let chunkSize = Int(chunkText), chunkSize >= 1 else {
            return try Router.badRequest(exchange, "chunk_size \(chunkText): must be 1 or more")
        }
        try exchange.sendChunkedHead(headers: [("Content-Type", "application/octet-stream")])
        var stream = DeterministicBytes(seed: seed)
        var block = [UInt8](repeating: 0, count: min(chunkSize, 1 << 20))
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, block.count)
            try block.withUnsafeMutableBytes { raw in
                let slice = UnsafeMutableRawBufferPointer(rebasing: raw[0..<size])
                stream.fill(slice)
                try exchange.sendChunk(UnsafeRawBufferPointer(slice))
            }
            remaining -= size
        }
        return try exchange.finishChunks()
    }

    /// `/drip?numbytes=10&duration=2&delay=0&code=200`: waits `delay` seconds, sends the head with
    /// `Content-Length: numbytes`, then `numbytes` '*' bytes spread evenly over `duration` seconds
    /// (the first at once, then one every `duration / numbytes` seconds).
    static func drip(_ exchange: Exchange) throws -> Disposition {
        let request = exchange.request
        guard let count = Int(request.queryValue("numbytes") ?? "10"), (0...10_000_000).contains(count),
              let duration = Double(request.queryValue("duration") ?? "2"), duration >= 0, duration.isFinite,
              let delay = Double(request.queryValue("delay") ?? "0"), delay >= 0, delay.isFinite,
              let code = Int(request.queryValue("code") ?? "200"), (200...599).contains(code)
        else {
            return try Router.badRequest(
                exchange, "drip: numbytes (0...10000000), duration and delay (seconds >= 0), code (200...599) expected"
            )
        }
        try wait(exchange, seconds: delay)
        try exchange.sendHead(status: code, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Length", String(count)),
        ])
        let pause = count > 0 ? duration / Double(count) : 0
        for index in 0..<count {
            if index > 0 { try wait(exchange, seconds: pause) }
            try exchange.socket.send([UInt8(ascii: "*")])
        }
        return request.wantsKeepAlive ? .keepAlive : .close
    }

    /// Waits, or ends the exchange when the client leaves or the server stops.
    static func wait(_ exchange: Exchange, seconds: Double) throws {
        guard seconds > 0 else { return }
        switch exchange.socket.wait(seconds: seconds) {
        case .elapsed: return
        case .clientClosed: throw ConnectionEnd.peerClosed
        case .serverStopping: throw ConnectionEnd.serverStopping
        }
    }

    private static func seed(_ exchange: Exchange) -> UInt64? {
        guard let text = exchange.request.queryValue("seed") else { return DeterministicBytes.defaultSeed }
        return UInt64(text)
    }
}
