import FoundationEssentials
import ReqtopHTTPModel

/// The JSON fields httpbin reports about a request, under httpbin's names.
enum EchoFields {
    /// `headers`: names in Title-Case (as httpbin shows them), repeated headers joined with ",".
    static func headers(_ request: ReceivedRequest) -> [String: Any] {
        var result: [String: String] = [:]
        for header in request.headers {
            let name = titleCase(header.name)
            result[name] = result[name].map { $0 + "," + header.value } ?? header.value
        }
        return result
    }

    /// `args`: a string per query parameter, or a list when it repeats.
    static func args(_ request: ReceivedRequest) -> [String: Any] {
        multiMap(request.queryItems)
    }

    /// `form`: the urlencoded body's fields, when the body is a form.
    static func form(_ request: ReceivedRequest) -> [String: Any] {
        guard isForm(request) else { return [:] }
        return multiMap(FormDecoding.decode(String(decoding: request.body, as: UTF8.self)))
    }

    static func isForm(_ request: ReceivedRequest) -> Bool {
        request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    /// `data`: the body as text if it is UTF-8, else a base64 data URL (httpbin's convention).
    static func data(_ request: ReceivedRequest) -> String {
        if isForm(request) { return "" }
        if let text = String(validating: request.body, as: UTF8.self) { return text }
        return "data:application/octet-stream;base64," + Data(request.body).base64EncodedString()
    }

    /// `json`: the body parsed as JSON, or null.
    static func json(_ request: ReceivedRequest) -> Any {
        guard !request.body.isEmpty, let value = try? JSONValue(parsing: Data(request.body)) else { return JSONValue.null }
        return value
    }

    /// The `/get` document: args, headers, origin, url.
    static func getDocument(_ exchange: Exchange) -> [String: Any] {
        [
            "args": args(exchange.request),
            "headers": headers(exchange.request),
            "origin": exchange.origin,
            "url": exchange.url,
        ]
    }

    private static func multiMap(_ items: [(name: String, value: String)]) -> [String: Any] {
        var grouped: [String: [String]] = [:]
        for item in items { grouped[item.name, default: []].append(item.value) }
        return grouped.mapValues { $0.count == 1 ? $0[0] as Any : $0 as Any }
    }

    private static func titleCase(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }
}
