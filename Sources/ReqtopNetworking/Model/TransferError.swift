/// Why a task failed: a typed code a program can switch on, and a message a person can read.
public struct TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case cancelled
        case timedOut
        case cannotResolveHost
        case cannotConnect
        case connectionReset
        case sendFailed
        case truncatedBody
        case badServerResponse
        case emptyResponse
        case tooManyRedirects
        /// A redirect the policy does not follow: another scheme than http(s), or an invalid Location.
        case redirectRefused
        case tlsFailure
        case badURL
        case fileIO
        /// A body passed the session's limit for bodies spilled to disk (`maxSpilledBodyBytes`).
        case bodyTooLarge
        case validationFailed
        case serializationFailed
        case protocolError
        case other
    }

    public var code: Code
    public var message: String
    /// libcurl's CURLcode when the error came from a transfer.
    public var curlCode: Int?

    public init(code: Code, message: String, curlCode: Int? = nil) {
        self.code = code
        self.message = message
        self.curlCode = curlCode
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
