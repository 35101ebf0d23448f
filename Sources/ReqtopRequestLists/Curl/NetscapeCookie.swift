import FoundationEssentials

/// One cookie of a Netscape cookie file (curl's `-b FILE`, `-c FILE`): tab-separated domain,
/// tail-match flag, path, secure flag, expiry (0: a session cookie), name, value. `#HttpOnly_`
/// before the domain marks an HttpOnly cookie; other `#` lines are comments.
struct NetscapeCookie: Equatable {
    var domain: String
    var tailMatch: Bool
    var path: String
    var secure: Bool
    var expires: Int64
    var name: String
    var value: String

    static func parse(_ text: String) -> [NetscapeCookie] {
        text.split(whereSeparator: \.isNewline).compactMap { raw in
            var line = Substring(raw)
            if line.hasPrefix("#HttpOnly_") { line = line.dropFirst("#HttpOnly_".count) } else if line.hasPrefix("#") { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 6 else { return nil }
            return NetscapeCookie(domain: String(fields[0]).lowercased(), tailMatch: fields[1].uppercased() == "TRUE", path: String(fields[2]),
                                  secure: fields[3].uppercased() == "TRUE", expires: Int64(fields[4]) ?? 0, name: String(fields[5]),
                                  value: fields.count > 6 ? String(fields[6]) : "")
        }
    }

    /// The cookies curl sends to `url`, in curl's order.
    static func matching(_ jar: [NetscapeCookie], url: String, now: Date = Date()) -> [NetscapeCookie] {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else { return [] }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let https = components.scheme?.lowercased() == "https"
        var latest: [String: NetscapeCookie] = [:] // a later line with the same name, domain and path replaces the earlier one
        var order: [String] = []
        for cookie in jar {
            let domain = cookie.domain.hasPrefix(".") ? String(cookie.domain.dropFirst()) : cookie.domain
            let domainMatches = host == domain || (cookie.tailMatch && host.hasSuffix("." + domain))
            let pathMatches = path == cookie.path || (path.hasPrefix(cookie.path) && (cookie.path.hasSuffix("/") || path.dropFirst(cookie.path.count).first == "/"))
            let live = cookie.expires == 0 || cookie.expires > Int64(now.timeIntervalSince1970)
            guard domainMatches, pathMatches, live, !cookie.secure || https else { continue }
            let key = "\(cookie.name)\t\(domain)\t\(cookie.path)"
            if latest[key] == nil { order.append(key) }
            latest[key] = cookie
        }
        return order.compactMap { latest[$0] }.sorted { a, b in
            if a.path.count != b.path.count { return a.path.count > b.path.count }
            if a.domain.count != b.domain.count { return a.domain.count > b.domain.count }
            return a.name < b.name
        }
    }
}
