import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request with every variable substituted, ready to send.
public struct ResolvedRequest: Sendable, Hashable {
    /// The spec it came from.
    public var spec: RequestSpec
    /// The spec's index in its list.
    public var index: Int
    public var method: String
    public var url: URL
    /// Ordered headers with values substituted.
    public var headers: [HeaderField]
    public var body: Data?

    public init(spec: RequestSpec, index: Int, method: String, url: URL, headers: [HeaderField], body: Data?) {
        self.spec = spec
        self.index = index
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A `URLRequest` with method, URL, headers (repeated names are combined by Foundation),
    /// body and the spec's timeout.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
        request.httpBody = body
        if let timeout = spec.options.timeout { request.timeoutInterval = timeout }
        return request
    }

    /// A readable multi-line description for `--dry-run`: request line, headers, then the body
    /// (text if it is UTF-8, else its size).
    public var displayText: String {
        var out = "\(method) \(url.absoluteString)\n"
        for header in headers { out += "\(header.name): \(header.value)\n" }
        if let body, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                out += "\n\(text)\n"
            } else {
                out += "\n<\(body.count) bytes of binary data>\n"
            }
        }
        return out
    }

    /// The first header with this name, case-insensitively.
    public func header(named name: String) -> String? { headers.value(named: name) }
}
