/// One redirect that was followed: the response that asked for it and where it led.
public struct RedirectHop: Sendable, Hashable {
    public var status: Int
    public var from: HTTPURL
    public var to: HTTPURL
    /// The redirect response's head as received (its Set-Cookie fields included).
    public var response: HTTPResponseHead
    /// Phase timings of this hop's exchange; nil until the hop's transfer has ended.
    public var timings: PhaseTimings?

    public init(status: Int, from: HTTPURL, to: HTTPURL, response: HTTPResponseHead, timings: PhaseTimings? = nil) {
        self.status = status
        self.from = from
        self.to = to
        self.response = response
        self.timings = timings
    }
}
