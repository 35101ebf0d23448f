import Foundation
import ReqtopHTTPModel
import ReqtopNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's request and response types at the edge of the API. Inside, everything is
/// `HTTPRequest`: `URLRequest` keeps headers in a dictionary, which reorders and merges them.
extension HTTPRequest {
    /// The same request from Foundation's type: method, URL, headers (in name order: a
    /// `URLRequest` does not keep the order they were set in), body (`httpBody`, or `httpBodyStream`
    /// read to its end) and `timeoutInterval` — unless it is `URLRequest`'s default of 60 s, which
    /// leaves the session's timeout in charge. Nil when the URL is missing or not absolute.
    public init?(_ request: URLRequest) {
        guard let text = request.url?.absoluteString, let url = HTTPURL(string: text) else { return nil }
        let headers = (request.allHTTPHeaderFields ?? [:])
            .sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { HTTPHeader(name: $0.key, value: $0.value) }
        var body = request.httpBody
        if body == nil, let stream = request.httpBodyStream { body = Self.readAll(stream) }
        let timeout = request.timeoutInterval
        self.init(method: request.httpMethod ?? "GET", url: url, headers: headers, body: body.map { .data($0) } ?? .none,
                  options: Options(timeout: timeout > 0 && timeout != 60 ? timeout : nil))
    }

    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

extension HTTPResponseHead {
    /// The same head as Foundation's response type (repeated headers are joined with ", ").
    public var httpURLResponse: HTTPURLResponse? {
        guard let url = url.foundationURL else { return nil }
        var fields: [String: String] = [:]
        for header in headers {
            if let existing = fields[header.name] { fields[header.name] = existing + ", " + header.value }
            else { fields[header.name] = header.value }
        }
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/" + httpVersion, headerFields: fields)
    }
}

extension TaskResponse {
    /// The final response as Foundation's type.
    public var response: HTTPURLResponse? { head?.httpURLResponse }
}

extension SessionManager {
    /// A data task for a Foundation request, converted to `HTTPRequest` (see `HTTPRequest.init(_:)`);
    /// a request without an absolute URL fails with `badURL`.
    public func dataTask(with request: URLRequest, options: TaskOptions = TaskOptions(),
                         completionHandler: @escaping @Sendable (TaskResponse<Data>) -> Void = { _ in }) -> HTTPTask {
        dataTask(with: HTTPRequest(request) ?? Self.invalidRequest, options: options, completionHandler: completionHandler)
    }

    /// A download task for a Foundation request.
    public func downloadTask(with request: URLRequest, destination: URL, options: TaskOptions = TaskOptions(),
                             completionHandler: @escaping @Sendable (TaskResponse<URL>) -> Void) -> HTTPTask {
        downloadTask(with: HTTPRequest(request) ?? Self.invalidRequest, destination: destination, options: options,
                     completionHandler: completionHandler)
    }

    /// Runs a data task for a Foundation request and returns the raw body.
    public func data(for request: URLRequest, options: TaskOptions = TaskOptions()) async -> TaskResponse<Data> {
        await data(for: HTTPRequest(request) ?? Self.invalidRequest, options: options)
    }

    /// A request libcurl refuses at once (`badURL`), standing in for a `URLRequest` without a usable URL.
    private static var invalidRequest: HTTPRequest {
        HTTPRequest(url: HTTPURL(string: "invalid://missing-url")!)
    }
}
