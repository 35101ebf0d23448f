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

    /// The entry's total time: every applicable phase except `ssl`, which `connect` includes.
    public var total: Double {
        [blocked, dns, connect, send, wait, receive].filter { $0 >= 0 }.reduce(0, +)
    }
}
