import FoundationEssentials
import ReqtopNetworking

/// How `ForwardProxy` listens and forwards.
public struct ProxyConfiguration: Sendable {
    /// The address to listen on: loopback unless asked otherwise.
    public var host = "127.0.0.1"
    /// 0 picks a free port (`ForwardProxy.port` says which).
    public var port = 8888
    /// Adds `Via: 1.1 <via>` to forwarded requests and responses; nil (the default) adds nothing.
    public var via: String?
    /// Decrypt CONNECT tunnels with certificates minted by this authority (`--intercept`); nil tunnels them untouched.
    public var interception: CertificateAuthority?
    /// The first this-many bytes of each request and response body are kept for the inspector; the rest only passes through.
    public var keptBodyBytes = 1 << 20
    /// More client connections than this wait in the listen queue.
    public var maxConnections = 4096
    /// How long a CONNECT tunnel may take to reach its host.
    public var connectTimeout: Double = 10
    /// Credentials every client must send (`--proxy-auth`): without them it gets 407 and nothing is forwarded.
    public var credentials: ProxyCredentials?
    /// Listening on an address other than loopback without `credentials` is refused unless this is set
    /// (`--allow-remote`): anyone who can reach the port could send requests from this machine.
    public var allowsRemoteClients = false

    public init() {}

    /// A session configuration fit for forwarding, from `base` (its TLS settings are kept): nothing
    /// added or changed on the way — no cookies, no decoding, no `User-Agent` of its own, no
    /// redirects followed (the client decides), no proxy of its own (`http_proxy` may name this
    /// very proxy), HTTP/1.1 upstream as the client spoke it — and room for many clients at once.
    public static func forwardingSession(from base: SessionConfiguration = SessionConfiguration()) -> SessionConfiguration {
        var configuration = base
        configuration.cookies = false
        configuration.compression = false
        configuration.userAgent = nil
        configuration.followRedirects = false
        configuration.proxy = .none
        configuration.httpVersion = .http1_1 // the client's HTTP/1.1 head goes on as it came (HTTP/2 would lower-case it)
        configuration.connectTimeout = min(configuration.connectTimeout, 10)
        configuration.idleTimeout = nil // long polls and event streams are quiet for minutes: the client decides
        configuration.maxConcurrentTasks = max(configuration.maxConcurrentTasks, 1024)
        configuration.maxConcurrentTasksPerHost = max(configuration.maxConcurrentTasksPerHost, 256)
        return configuration
    }
}
