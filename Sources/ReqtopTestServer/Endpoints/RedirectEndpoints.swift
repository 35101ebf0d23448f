/// `/status/{code}`, `/redirect/{n}`, `/redirect-to`.
enum RedirectEndpoints {
    /// Responds with `code` and an empty body; 3xx codes carry `Location: /redirect/1`,
    /// 401 a `WWW-Authenticate` challenge, as httpbin does.
    static func status(_ exchange: Exchange, code text: String) throws -> Disposition {
        guard let code = Int(text), (200...599).contains(code) else {
            return try Router.badRequest(exchange, "status \(text): not a status code in 200...599")
        }
        var headers: [(String, String)] = []
        if [301, 302, 303, 305, 307, 308].contains(code) { headers.append(("Location", "/redirect/1")) }
        if code == 401 { headers.append(("WWW-Authenticate", "Basic realm=\"Fake Realm\"")) }
        if code == 204 || code == 304 {
            try exchange.sendHead(status: code, headers: headers)
            return exchange.request.wantsKeepAlive ? .keepAlive : .close
        }
        return try exchange.respond(status: code, headers: headers)
    }

    /// `/redirect/{n}`: 302 to `/redirect/{n-1}`, and `/redirect/1` to `/get`.
    /// Locations are relative unless `?absolute=true`.
    static func redirect(_ exchange: Exchange, count text: String) throws -> Disposition {
        guard let count = Int(text), count >= 1 else {
            return try Router.badRequest(exchange, "redirect \(text): the count must be 1 or more")
        }
        let base = exchange.request.path.hasPrefix("/relative-redirect") ? "/relative-redirect" : "/redirect"
        var location = count == 1 ? "/get" : "\(base)/\(count - 1)"
        if exchange.request.queryValue("absolute")?.lowercased() == "true" {
            location = "http://\(exchange.request.header("Host") ?? exchange.authority)\(location)"
            if count > 1 { location += "?absolute=true" }
        }
        return try exchange.respond(status: 302, headers: [("Location", location)])
    }

    /// `/redirect-to?url=&status_code=`: a redirect to `url` (status 300...399, default 302).
    static func redirectTo(_ exchange: Exchange) throws -> Disposition {
        guard let url = exchange.request.queryValue("url"), !url.isEmpty else {
            return try Router.badRequest(exchange, "redirect-to: the url parameter is missing")
        }
        var status = Int(exchange.request.queryValue("status_code") ?? "") ?? 302
        if !(300...399).contains(status) { status = 302 }
        return try exchange.respond(status: status, headers: [("Location", url)])
    }
}
