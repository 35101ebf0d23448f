import FoundationEssentials

/// `/basic-auth/{user}/{passwd}` and `/cookies`, `/cookies/set`, `/cookies/delete`.
enum CookieAndAuthEndpoints {
    static func basicAuth(_ exchange: Exchange, user: String, password: String) throws -> Disposition {
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        guard exchange.request.header("Authorization") == expected else {
            return try exchange.respond(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"Fake Realm\"")])
        }
        return try exchange.respondJSON(["authenticated": true, "user": user])
    }

    /// Echoes the `Cookie` header as `{"cookies": {name: value}}`.
    static func cookies(_ exchange: Exchange) throws -> Disposition {
        var cookies: [String: String] = [:]
        for pair in (exchange.request.header("Cookie") ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingWhitespace()
            guard !name.isEmpty else { continue }
            cookies[name] = parts.count > 1 ? String(parts[1]) : ""
        }
        return try exchange.respondJSON(["cookies": cookies])
    }

    /// Sets a cookie per query parameter, then redirects to `/cookies`.
    static func setCookies(_ exchange: Exchange) throws -> Disposition {
        let headers = exchange.request.queryItems.map { ("Set-Cookie", "\($0.name)=\($0.value); Path=/") }
        return try exchange.respond(status: 302, headers: headers + [("Location", "/cookies")])
    }

    /// Expires each cookie named in the query, then redirects to `/cookies`.
    static func deleteCookies(_ exchange: Exchange) throws -> Disposition {
        let headers = exchange.request.queryItems.map {
            ("Set-Cookie", "\($0.name)=; Expires=Thu, 01-Jan-1970 00:00:00 GMT; Max-Age=0; Path=/")
        }
        return try exchange.respond(status: 302, headers: headers + [("Location", "/cookies")])
    }
}
