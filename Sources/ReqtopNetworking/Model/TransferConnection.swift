/// The TCP connection that carried a task's last exchange: the client's port and the server's
/// address and port, as libcurl reports them. Tasks with the same one shared a connection — one
/// after another over HTTP/1.1 keep-alive, or at once as HTTP/2 streams.
public struct TransferConnection: Sendable, Hashable, CustomStringConvertible {
    /// The client's port: what tells two connections to the same server apart (HAR's `connection`).
    public var localPort: Int
    public var remoteAddress: String
    public var remotePort: Int

    public init(localPort: Int, remoteAddress: String, remotePort: Int) {
        self.localPort = localPort
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    /// `port 54321 → 127.0.0.1:443`.
    public var description: String {
        "port \(localPort) → " + (remoteAddress.containsBytes(":") ? "[\(remoteAddress)]" : remoteAddress) + ":\(remotePort)"
    }
}
