/// Where a request's time went, in milliseconds; −1 where a phase did not happen
/// (no DNS or connect on a reused connection, no TLS on plain HTTP, no redirect). Same phases as
/// HAR and `curl -w`: the phases are those of the last exchange, `redirect` is the time spent on
/// the redirects before it (curl's `time_redirect`), and `total` includes it.
public struct PhaseTimings: Sendable, Hashable, Codable {
    /// Time spent on earlier hops of a redirect chain, or −1 when there were none.
    public var redirect: Double
    public var dns: Double
    public var connect: Double
    public var tls: Double
    public var send: Double
    public var wait: Double
    public var receive: Double
    public var total: Double

    public init(dns: Double, connect: Double, tls: Double, send: Double, wait: Double, receive: Double, total: Double) {
        self.redirect = -1
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.send = send
        self.wait = wait
        self.receive = receive
        self.total = total
    }

    public static let unknown = PhaseTimings(dns: -1, connect: -1, tls: -1, send: -1, wait: -1, receive: -1, total: -1)

    /// These timings with `earlier` milliseconds of redirects before them (added to `total`).
    public func afterRedirects(taking earlier: Double) -> PhaseTimings {
        guard earlier > 0 || redirect >= 0 else { return self }
        var copy = self
        copy.redirect = max(0, redirect) + earlier
        if copy.total >= 0 { copy.total += earlier }
        return copy
    }

    /// The last exchange alone: without the redirects before it.
    public var lastExchange: PhaseTimings {
        guard redirect > 0 else { return self }
        var copy = self
        if copy.total >= 0 { copy.total = max(0, total - redirect) }
        copy.redirect = -1
        return copy
    }

    /// Phases from libcurl's cumulative marks (microseconds since the transfer started).
    public init(nameLookup: Int64, connect: Int64, appConnect: Int64, preTransfer: Int64,
         startTransfer: Int64, total: Int64, reusedConnection: Bool) {
        func ms(_ us: Int64) -> Double { Double(max(us, 0)) / 1000 }
        let connected = appConnect > 0 ? appConnect : connect
        self.dns = reusedConnection ? -1 : ms(nameLookup)
        self.connect = reusedConnection ? -1 : ms(connect - nameLookup)
        self.tls = appConnect > 0 ? ms(appConnect - connect) : -1
        if preTransfer <= 0 {
            // The request was never sent (connecting failed or timed out): no send, wait or receive.
            self.send = -1
            self.wait = -1
            self.receive = -1
        } else if startTransfer <= 0 {
            // No first byte came back: everything after sending was waiting (a stalled server, a timeout).
            self.send = ms(preTransfer - connected)
            self.wait = ms(total - preTransfer)
            self.receive = -1
        } else {
            self.send = ms(preTransfer - connected)
            self.wait = ms(startTransfer - preTransfer)
            self.receive = ms(total - startTransfer)
        }
        self.total = ms(total)
        self.redirect = -1
    }
}
