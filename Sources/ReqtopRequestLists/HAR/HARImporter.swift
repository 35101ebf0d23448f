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

    public static func parse(text: String, path: String) throws(RequestListError) -> RequestList {
        do {
            _ = try JSONParser.parse(text)
        } catch {
            throw RequestListError.json(error, text: text, file: path, what: "HAR file")
        }
        let lines = text.splitLines()
        let requestKeys = HAREntryLocator.requestKeys(in: text)
        let document: HARDocument
        do {
            document = try JSONDecoder().decode(HARDocument.self, from: Data(text.utf8))
        } catch {
            var line = 1
            var column = 1
            if let context = (error as? DecodingError)?.context, let entry = HAREntryLocator.entryIndex(in: context.codingPath),
               entry < requestKeys.count {
                (line, column) = requestKeys[entry]
            }
            throw RequestListError(file: path, line: line, column: column, message: "not a HAR 1.2 archive: \(describe(error))",
                                   lineText: line <= lines.count ? lines[line - 1] : "")
        }
        var warnings: [RequestListWarning] = []
        let located = requestKeys.count == document.log.entries.count
        let specs = document.log.entries.enumerated().map { index, entry in
            var spec = spec(from: entry.request, index: index, path: path, warnings: &warnings)
            if located { spec.location = SourceLocation(file: path, line: requestKeys[index].line, column: requestKeys[index].column) }
            return spec
        }
        return RequestList(specs: specs, sourcePath: path, format: .har, warnings: warnings, sourceLines: lines)
    }

    static func keep(header name: String) -> Bool {
        let lower = name.lowercased()
        return !lower.hasPrefix(":") && !lower.hasPrefix("proxy-") && !droppedHeaders.contains(lower)
    }

    static func spec(from request: HARRequest, index: Int, path: String, warnings: inout [RequestListWarning]) -> RequestSpec {
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

    static func describe(_ error: Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [CodingKey]) -> String {
            String(keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined().drop(while: { $0 == Character(".") }))
        }
        switch decoding {
        case let .keyNotFound(key, context):
            return "missing field '\(key.stringValue)' at \(path(context.codingPath).isEmpty ? "top level" : path(context.codingPath))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return "unexpected value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension DecodingError {
    /// The context of any decoding error.
    var context: Context? {
        switch self {
        case let .keyNotFound(_, context), let .typeMismatch(_, context), let .valueNotFound(_, context),
             let .dataCorrupted(context):
            return context
        @unknown default:
            return nil
        }
    }
}
