import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The status line and headers of one HTTP response.
public struct HTTPResponseHead: Sendable, Hashable {
    public var url: URL
    public var httpVersion: String
    public var status: Int
    public var reason: String
    public var headers: [HTTPHeader]

    public init(url: URL, httpVersion: String, status: Int, reason: String, headers: [HTTPHeader]) {
        self.url = url
        self.httpVersion = httpVersion
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// The same head as Foundation's response type (repeated headers are joined with ", ").
    public var httpURLResponse: HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: httpVersion, headerFields: headers.joinedByName)
    }

    /// The media type of `Content-Type`, lowercased, without parameters.
    public var mimeType: String? {
        headers.value(for: "Content-Type")?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}

/// One redirect that was followed.
public struct RedirectHop: Sendable, Hashable {
    public var status: Int
    public var from: URL
    public var to: URL
    public init(status: Int, from: URL, to: URL) {
        self.status = status
        self.from = from
        self.to = to
    }
}
