import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks

/// A request typed or pasted at the `n` prompt: `METHOD URL` (or just a URL for a GET; a URL
/// without a scheme gets `http://`), a pasted curl command, or a pasted `.http` block (request
/// line, headers, body). The method is kept exactly as given (any RFC 9110 token).
enum TypedRequest {
    /// The request (with a note when a paste held more than one), or why it is not one.
    static func parse(_ input: String) -> Result<(request: HTTPRequest, note: String?), TypedRequestError> {
        let text = input.trimmingWhitespaceAndNewlines()
        if text.hasPrefix("curl ") || text.hasPrefix("curl\t") { return load(text, format: .curl, what: "curl command") }
        if text.containsBytes("\n") { return load(text, format: .http, what: ".http request") }
        return line(text).map { .success(($0, nil)) } ?? .failure(TypedRequestError(
            message: "expected METHOD URL, a URL, a curl command or an .http request, e.g. GET 127.0.0.1:8080/get"))
    }

    /// `METHOD URL` or `URL`; http:// is assumed when the URL has no scheme.
    static func line(_ line: String) -> HTTPRequest? {
        let parts = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard var target = parts.last, parts.count <= 2 else { return nil }
        if !target.containsBytes("://") { target = "http://" + target }
        guard let url = HTTPURL(string: target), url.scheme == "http" || url.scheme == "https", !url.authority.isEmpty else { return nil }
        let method = parts.count == 2 ? parts[0] : "GET"
        guard HTTPRequest.isValidMethod(method) else { return nil }
        return HTTPRequest(method: method, url: url)
    }

    private static func load(_ text: String, format: RequestListFormat, what: String) -> Result<(request: HTTPRequest, note: String?), TypedRequestError> {
        do {
            let list = try RequestListLoader.load(text: text, path: "pasted \(what)", format: format)
            guard !list.specs.isEmpty else { return .failure(TypedRequestError(message: "the pasted \(what) has no request")) }
            let resolver = RequestResolver(list: list)
            try resolver.validate()
            let note = list.specs.count > 1 ? "the paste holds \(list.specs.count) requests: this is the first" : nil
            return .success((try resolver.resolve(0), note))
        } catch {
            return .failure(TypedRequestError(message: "not a \(what): \(error.message) (line \(error.line), column \(error.column))"))
        }
    }
}

struct TypedRequestError: Error {
    let message: String
}
