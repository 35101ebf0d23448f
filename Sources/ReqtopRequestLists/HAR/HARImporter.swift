import Foundation

/// Reads HAR 1.2 archives (browsers' "Save all as HAR", mitmproxy, reqtop) into specs.
///
/// Each entry becomes a spec with its method (as written) and URL (as written) and headers in
/// order, minus HTTP/2 pseudo-headers (`:authority` …), hop-by-hop headers and `Content-Length`
/// (recomputed when sent). Cookies become a `Cookie` header when the entry has none; `postData`
/// becomes the body (base64-decoded when `_encoding` says so), or form fields when only `params`
/// are given; its `mimeType` becomes the `Content-Type` when the entry has none.
public enum HARImporter {
    /// Headers never replayed: hop-by-hop (RFC 9110 §7.6.1) and Content-Length.
    static let droppedHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "upgrade", "te", "trailer", "content-length",
    ]

    /// Parses the archive once, keeping positions: each spec, and each error, points at its
    /// entry's `request` (or, for an error, at the offending member inside it).
    public static func parse(text: String, path: String) throws(RequestListError) -> RequestList {
        let json: LocatedJSON
        do {
            json = try JSONParser.parseLocated(text)
        } catch {
            throw RequestListError.json(error, text: text, file: path, what: "HAR file")
        }
        let lines = text.splitLines()
        let located: [HARNode]
        let requests: [HAR.Request]
        do {
            located = try HARNode(json).field("log").field("entries").items().map { entry throws(HARDecodingError) in
                try entry.field("request")
            }
            requests = try located.map(HAR.Request.init)
        } catch {
            throw RequestListError(file: path, line: error.line, column: error.column,
                                   message: "not a HAR 1.2 archive: \(error.message)",
                                   lineText: error.line <= lines.count ? lines[error.line - 1] : "")
        }
        var warnings: [RequestListWarning] = []
        let specs = zip(requests, located).enumerated().map { index, pair in
            var spec = spec(from: pair.0, index: index, path: path, warnings: &warnings)
            spec.location = SourceLocation(file: path, line: pair.1.json.line, column: pair.1.json.column)
            return spec
        }
        return RequestList(specs: specs, sourcePath: path, format: .har, warnings: warnings, sourceLines: lines)
    }

    static func keep(header name: String) -> Bool {
        let lower = name.lowercased()
        return !lower.hasPrefix(":") && !lower.hasPrefix("proxy-") && !droppedHeaders.contains(lower)
    }

    static func spec(from request: HAR.Request, index: Int, path: String, warnings: inout [RequestListWarning]) -> RequestSpec {
        var headers = (request.headers ?? []).filter { keep(header: $0.name) }.map { HTTPHeader(name: $0.name, value: $0.value) }
        let hasCookie = headers.value(for: "Cookie") != nil
        if !hasCookie, let cookies = request.cookies, !cookies.isEmpty {
            headers.append(HTTPHeader(name: "Cookie", value: cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")))
        }
        var body: RequestBody?
        if let post = request.postData {
            if let mimeType = post.mimeType, !mimeType.isEmpty, headers.value(for: "Content-Type") == nil {
                headers.append(HTTPHeader(name: "Content-Type", value: mimeType))
            }
            if let text = post.text, !text.isEmpty {
                let encoding = post._encoding?.lowercased()
                if encoding == "base64", let data = Data(base64Encoded: text) {
                    body = .bytes(data)
                } else {
                    body = .text(text)
                }
            } else if let params = post.params, !params.isEmpty {
                if params.contains(where: { $0.fileName != nil }) {
                    warnings.append(RequestListWarning(
                        location: nil,
                        message: "entry \(index + 1): file uploads in postData.params cannot be replayed; only their names and values are sent"))
                }
                body = .form(params.map { FormField(name: $0.name, value: $0.value ?? "") })
            }
        }
        var options = HTTPRequest.Options()
        if headers.value(for: "Accept-Encoding") != nil { options.compressed = true }
        return RequestSpec(method: request.method, url: request.url, headers: headers, body: body, options: options)
    }
}
