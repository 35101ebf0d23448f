/// HAR 1.2's `cookies` arrays, read from the headers that carry them: a request's `Cookie`
/// fields (`name=value` pairs split at `;`, RFC 6265 §4.2) and a response's `Set-Cookie` fields
/// (the pair, then `Path`, `Domain`, `Expires`, `HttpOnly`, `Secure`, §4.1). The headers stay
/// as they were sent; these lists repeat them the way HAR viewers show cookies.
enum HARCookies {
    /// The cookies a request sent, in order.
    static func sent(in headers: [HTTPHeader]) -> [HAR.Cookie] {
        headers.filter { HTTPHeader.namesMatch($0.name, "Cookie") }.flatMap { field in
            field.value.split(separator: ";").compactMap { pair -> HAR.Cookie? in
                let (name, value) = Self.pair(pair)
                return name.isEmpty && value.isEmpty ? nil : HAR.Cookie(name: name, value: value)
            }
        }
    }

    /// The cookies a response set, one per `Set-Cookie` field.
    static func set(by headers: [HTTPHeader]) -> [HAR.Cookie] {
        headers.filter { HTTPHeader.namesMatch($0.name, "Set-Cookie") }.compactMap { field in
            var parts = field.value.split(separator: ";", omittingEmptySubsequences: false)[...]
            guard let first = parts.popFirst() else { return nil }
            let (name, value) = Self.pair(first)
            guard !name.isEmpty || !value.isEmpty else { return nil }
            var cookie = HAR.Cookie(name: name, value: value)
            for attribute in parts {
                let (key, argument) = attribute.containsBytes("=") ? Self.pair(attribute) : (Self.trim(attribute), "")
                switch key.lowercased() {
                case "path": cookie.path = argument
                case "domain": cookie.domain = argument
                case "expires": cookie.expires = argument
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }
    }

    /// `name=value` with the spaces around each trimmed (a pair without `=` is a value with no name, as RFC 6265 §5.2 reads it).
    private static func pair(_ text: Substring) -> (String, String) {
        guard let equals = text.firstIndex(of: "=") else { return ("", trim(text)) }
        return (trim(text[..<equals]), trim(text[text.index(after: equals)...]))
    }

    private static func trim(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
