import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReqtopNetworking

/// What the inspector asks of the session it shows. Each call returns a short message for the status line.
public protocol InspectorActions: AnyObject {
    /// Suspends a running task or resumes a suspended one.
    func suspendOrResume(_ id: TaskID) -> String
    func cancel(_ id: TaskID) -> String
    /// Sends the same request again as a new task.
    func replay(_ record: TaskRecord) -> String
    /// Sends a new request typed at the prompt.
    func send(_ request: NewRequest) -> String
    func saveHAR(to path: String) -> String
    func exportCurl(_ record: TaskRecord, to path: String) -> String
    /// Edits the request as `.http` text in the user's editor and sends the edited copy.
    func edit(_ record: TaskRecord) -> String
    /// Tasks not yet ended.
    var unfinishedCount: Int { get }
    /// Requests of a replayed list that have not been sent yet.
    var queuedCount: Int { get }
}

/// A request typed at the `n` prompt.
public struct NewRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [HTTPHeader]
    public var body: Data?

    /// Parses `METHOD URL` or just `URL` (GET). Nil when the URL is not http(s).
    public init?(requestLine: String) {
        let parts = requestLine.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = parts.last, parts.count <= 2,
              let url = URL(string: last), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else { return nil }
        method = parts.count == 2 ? parts[0].uppercased() : "GET"
        self.url = url
        headers = []
        body = nil
    }

    /// The request as Foundation's type.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
        request.httpBody = body
        return request
    }
}
