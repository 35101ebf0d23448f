/// HAR phase timings in milliseconds; -1 where a phase does not apply (e.g. dns and connect
/// on a reused connection). As the spec says, `ssl` is also included in `connect`.
public struct HARTimings: Sendable, Hashable {
    public var blocked: Double
    public var dns: Double
    public var connect: Double
    public var ssl: Double
    public var send: Double
    public var wait: Double
    public var receive: Double

    public init(blocked: Double = -1, dns: Double = -1, connect: Double = -1, ssl: Double = -1,
                send: Double = 0, wait: Double = 0, receive: Double = 0) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.ssl = ssl
        self.send = send
        self.wait = wait
        self.receive = receive
    }

    /// Maps curl's cumulative phase times (seconds from the start of the transfer, as
    /// `CURLINFO_*_TIME_T` / 1e6 give them) to HAR timings.
    /// - Parameters:
    ///   - queued: seconds the task waited before the transfer started, or nil.
    ///   - nameLookup, connect, appConnect, preTransfer, startTransfer, total: curl's times;
    ///     `connect` 0 means a reused connection (dns, connect, ssl are then -1); `appConnect` 0 means no TLS.
    public static func fromCurl(queued: Double?, nameLookup: Double, connect: Double, appConnect: Double,
                                preTransfer: Double, startTransfer: Double, total: Double) -> HARTimings {
        func ms(_ seconds: Double) -> Double { max(0, (seconds * 1_000_000).rounded() / 1000) }
        var timings = HARTimings()
        timings.blocked = queued.map(ms) ?? -1
        let reused = connect <= 0
        let connected = reused ? 0 : (appConnect > 0 ? appConnect : connect)
        if !reused {
            timings.dns = ms(nameLookup)
            timings.connect = ms(connected - nameLookup)
            timings.ssl = appConnect > 0 ? ms(appConnect - connect) : -1
        }
        timings.send = ms(preTransfer - connected)
        let firstByte = startTransfer > 0 ? startTransfer : total
        timings.wait = ms(firstByte - preTransfer)
        timings.receive = ms(total - firstByte)
        return timings
    }

    /// The entry's total time: every applicable phase except `ssl`, which `connect` includes.
    public var total: Double {
        [blocked, dns, connect, send, wait, receive].filter { $0 >= 0 }.reduce(0, +)
    }
}
