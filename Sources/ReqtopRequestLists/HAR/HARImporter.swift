import FoundationEssentials

/// Reads HAR 1.2 archives (browsers' "Save all as HAR", mitmproxy, reqtop) into specs.
///
/// Each entry becomes a spec with its method (as written) and URL (as written) and headers in
/// order, minus HTTP/2 pseudo-headers (`:authority` …), hop-by-hop headers and `Content-Length`
/// (recomputed when sent; a `Content-Length: 0` without a body is kept) — the names left out are
/// listed in one warning. Cookies become a `Cookie` header when the entry has none; `postData`
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
        if PostmanImporter.isCollection(json.value) { return PostmanImporter.parse(json, text: text, path: path) }
        if InsomniaImporter.isExport(json.value) { return InsomniaImporter.parse(json, text: text, path: path) }
        let lines = text.splitLines()
        let located: [HARNode]
        let requests: [HAR.Request]
        let coercions = HARCoercions()
        do {
            located = try HARNode(json, coercions: coercions).field("log").field("entries").items().map { entry throws(HARDecodingError) in
                try entry.field("request")
            }
            requests = try located.map(HAR.Request.init)
        } catch {
            if let name = ForeignFormat.name(ofJSON: json.value) { throw ForeignFormat.error(path: path, name: name) }
            throw RequestListError(file: path, line: error.line, column: error.column,
                                   message: "not a HAR 1.2 archive: \(error.message)",
                                   lineText: error.line <= lines.count ? lines[error.line - 1] : "")
        }
        var warnings: [RequestListWarning] = []
        if let summary = coercions.summary {
            warnings.append(RequestListWarning(location: SourceLocation(file: path, line: 1, column: 1), message: summary))
        }
        var specs: [RequestSpec] = []
        var leftOut: [String: Int] = [:] // header names not replayed, by lower-cased name: entries
        var spelling: [String: String] = [:]
        for (index, (request, node)) in zip(requests, located).enumerated() {
            let location = SourceLocation(file: path, line: node.json.line, column: node.json.column)
            if request.url.trimmingWhitespace().isEmpty {
                warnings.append(RequestListWarning(location: location, message: "entry \(index + 1) skipped: its URL is empty"))
                continue
            }
            // A proxy's CONNECT tunnel (reqtop proxy records them) carried TLS nobody read: no request to send again.
            if request.method.uppercased() == "CONNECT" {
                warnings.append(RequestListWarning(location: location,
                                                   message: "entry \(index + 1) skipped: a CONNECT tunnel has no request in it to replay"))
                continue
            }
            // WebSocket, data: and other non-HTTP entries cannot be replayed as HTTP requests.
            if let scheme = HTTPURL.scheme(of: request.url), scheme != "http", scheme != "https" {
                warnings.append(RequestListWarning(location: location,
                                                   message: "entry \(index + 1) skipped: a \(scheme): request is not HTTP and is not replayed"))
                continue
            }
            var spec = spec(from: request, index: index, path: path, warnings: &warnings)
            spec.location = location
            let sent = Set(spec.headers.map { $0.name.lowercased() })
            for header in request.headers ?? [] where !header.name.hasPrefix(":") && !sent.contains(header.name.lowercased()) {
                let lower = header.name.lowercased()
                if spelling[lower] == nil { spelling[lower] = header.name }
                leftOut[lower, default: 0] += 1
            }
            specs.append(spec)
        }
        warnings += LiteralPlaceholders.warnings(for: specs, format: .har)
        if !leftOut.isEmpty {
            let names = leftOut.keys.sorted().map { "\(spelling[$0] ?? $0) ×\(leftOut[$0]!)" }
            warnings.append(RequestListWarning(location: SourceLocation(file: path, line: 1, column: 1),
                                               message: "recorded header fields not replayed (they belong to the recorded connection; "
                                                   + "the client sends its own, and the body's length): " + names.joined(separator: ", ")))
        }
        return RequestList(specs: specs, sourcePath: path, format: .har, warnings: warnings, sourceLines: lines)
    }

    /// `params` as a multipart/form-data body with the boundary of `contentType` (one is added to
    /// the Content-Type header when it names none).
    static func multipartBody(_ params: [HAR.Param], contentType: String, headers: inout [HTTPHeader]) -> Data {
        var boundary = contentType.split(separator: ";").lazy
            .map { $0.trimmingWhitespace() }
            .first { $0.lowercased().hasPrefix("boundary=") }
            .map { String($0.dropFirst("boundary=".count)).trimmingASCII("\"") }
        if boundary == nil {
            let made = "reqtop-" + UUID().uuidString
            boundary = made
            if let i = headers.firstIndex(where: { HTTPHeader.namesMatch($0.name, "Content-Type") }) {
                headers[i].value = "multipart/form-data; boundary=\(made)"
            }
        }
        var body = ""
        for param in params {
            body += "--\(boundary!)\r\nContent-Disposition: form-data; name=\"\(param.name)\""
            if let fileName = param.fileName { body += "; filename=\"\(fileName)\"" }
            body += "\r\n"
            if let type = param.contentType, !type.isEmpty { body += "Content-Type: \(type)\r\n" }
            body += "\r\n\(param.value ?? "")\r\n"
        }
        body += "--\(boundary!)--\r\n"
        return Data(body.utf8)
    }

    static func keep(header name: String) -> Bool {
        let lower = name.lowercased()
        return !lower.hasPrefix(":") && !lower.hasPrefix("proxy-") && !droppedHeaders.contains(lower)
    }

    static func spec(from request: HAR.Request, index: Int, path: String, warnings: inout [RequestListWarning]) -> RequestSpec {
        let hasBody = !(request.postData?.text ?? "").isEmpty || !(request.postData?.params ?? []).isEmpty
        var headers = (request.headers ?? []).filter { header in
            // A recorded `Content-Length: 0` on a request without a body goes out as recorded (nothing would add it).
            keep(header: header.name) || (!hasBody && header.name.lowercased() == "content-length" && header.value.trimmingWhitespace() == "0")
        }.map { HTTPHeader(name: $0.name, value: $0.value) }
        let hasCookie = headers.value(for: "Cookie") != nil
        if !hasCookie, let cookies = request.cookies, !cookies.isEmpty {
            headers.append(HTTPHeader(name: "Cookie", value: cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")))
        }
        var body: RequestBody?
        if let post = request.postData {
            // (An empty postData — Polly.JS writes one on every GET — has no body to type.)
            if hasBody, let mimeType = post.mimeType, !mimeType.isEmpty, headers.value(for: "Content-Type") == nil {
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
                let contentType = headers.value(for: "Content-Type") ?? ""
                if contentType.lowercased().hasPrefix("multipart/") {
                    body = .bytes(multipartBody(params, contentType: contentType, headers: &headers))
                    if params.contains(where: { $0.fileName != nil && ($0.value ?? "").isEmpty }) {
                        warnings.append(RequestListWarning(
                            location: nil,
                            message: "entry \(index + 1): the HAR holds no contents for its file uploads; those parts are sent empty"))
                    }
                } else {
                    body = .form(params.map { FormField(name: $0.name, value: $0.value ?? "") })
                }
            }
        }
        var options = HTTPRequest.Options()
        if headers.value(for: "Accept-Encoding") != nil { options.compressed = true }
        return RequestSpec(method: request.method, url: request.url, headers: headers, body: body, options: options)
    }
}
