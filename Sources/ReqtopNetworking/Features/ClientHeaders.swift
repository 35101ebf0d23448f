import FoundationEssentials

/// The header fields of a request as libcurl writes them for HTTP/1.1: its own fields where it
/// puts them, the request's in list order — what `--dry-run` shows (the added ones marked) and
/// what the Request tab shows once sent.
public enum ClientHeaders {
    /// Every field `request` goes out with in a session with `configuration`, in wire order, each
    /// with whether the client added it. A field the request sets itself replaces the client's
    /// (a custom `Host` takes the Host position). Cookies from the session's jar are added at send
    /// time when the jar holds cookies for the host, so they are not listed here.
    public static func onTheWire(_ request: HTTPRequest, configuration: SessionConfiguration) -> [(header: HTTPHeader, added: Bool)] {
        let transfer = TransferRequest(request, configuration: configuration)
        var fields: [(header: HTTPHeader, added: Bool)] = []
        let suppressed = Set(suppressed(transfer).map { $0.lowercased() })
        func add(_ name: String, _ value: String?) {
            guard let value, !request.headers.contains(name: name), !suppressed.contains(name.lowercased()) else { return }
            fields.append((HTTPHeader(name: name, value: value), true))
        }
        if let host = request.headers.first(where: { HTTPHeader.namesMatch($0.name, "Host") }) {
            fields.append((host, false))
        } else {
            add("Host", request.url.authority)
        }
        if let userInfo = request.url.userInfo {
            add("Authorization", "Basic " + Data((userInfo.percentDecoded() ?? userInfo).utf8).base64EncodedString())
        }
        add("User-Agent", transfer.userAgent)
        add("Accept", "*/*")
        if transfer.compression { add("Accept-Encoding", acceptEncoding) }
        // libcurl writes Transfer-Encoding before the request's own fields, Content-Length after them.
        let size = transfer.bodySize
        if request.body != .none, size == nil { add("Transfer-Encoding", "chunked") }
        fields += request.headers.filter { !HTTPHeader.namesMatch($0.name, "Host") }.map { ($0, false) }
        if request.body != .none, let size { add("Content-Length", String(size)) }
        return fields
    }

    /// The fields libcurl would add by itself that this request goes without (the transfer sends
    /// `Name:` for each, which removes libcurl's): `Expect` and a default `Content-Type` for a body
    /// (nothing is invented), `Accept` for a proxied request sent as its client wrote it, and what
    /// the request's options leave out (curl's `-H 'Accept:'`). The one rule for both the wire
    /// (`Transfer`) and what `onTheWire` shows.
    static func suppressed(_ transfer: TransferRequest) -> [String] {
        let headers = transfer.request.headers
        var names: [String] = transfer.hasBody ? ["Expect", "Content-Type"] : []
        if transfer.verbatimHead { names.append("Accept") }
        names += transfer.request.options.omittedHeaders ?? []
        var seen: Set<String> = []
        return names.filter { !headers.contains(name: $0) && seen.insert($0.lowercased()).inserted }
    }

    /// What libcurl sends for `CURLOPT_ACCEPT_ENCODING ""`: every encoding this libcurl can decode.
    static let acceptEncoding: String = CurlInfo.supportedEncodings.joined(separator: ", ")
}
