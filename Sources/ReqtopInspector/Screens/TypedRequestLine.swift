import ReqtopNetworking
import ReqtopSession

/// The first line typed at the `n` prompt: `METHOD URL`, or just `URL` for a GET. The method is
/// kept exactly as typed (any RFC 9110 token); the URL must be http(s) with a host.
enum TypedRequestLine {
    static func parse(_ line: String) -> HTTPRequest? {
        let parts = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = parts.last, parts.count <= 2, let url = HTTPURL(string: last),
              url.scheme == "http" || url.scheme == "https" else { return nil }
        let method = parts.count == 2 ? parts[0] : "GET"
        guard HTTPRequest.isValidMethod(method) else { return nil }
        return HTTPRequest(method: method, url: url)
    }
}
