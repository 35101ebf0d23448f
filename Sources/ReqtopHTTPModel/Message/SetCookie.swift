import FoundationEssentials

/// One `Set-Cookie` field value (RFC 6265 §4.1): the cookie's name and value, and the attributes
/// the Cookies tab shows. `{{login.response.cookies.token.value}}` reads `value`.
public struct SetCookie: Sendable, Hashable {
    public var name = "", value = "", domain = "", path = "", expires = "", flags = ""

    public init(parsing field: String) {
        let parts = field.split(separator: ";").map { $0.trimmingWhitespace() }
        (name, value) = Self.nameAndValue(parts.first ?? "")
        var flags: [String] = []
        for attribute in parts.dropFirst() {
            let (key, attributeValue) = Self.nameAndValue(attribute)
            switch key.lowercased() {
            case "domain": domain = attributeValue
            case "path": path = attributeValue
            case "expires": expires = attributeValue
            case "max-age": expires = "max-age \(attributeValue)"
            case "samesite": flags.append("SameSite=\(attributeValue)")
            default: flags.append(key)
            }
        }
        self.flags = flags.joined(separator: " ")
    }

    /// `name=value` (a cookie pair or an attribute) split at the first `=`, both sides trimmed;
    /// without `=`, all of it is the name.
    public static func nameAndValue(_ pair: String) -> (name: String, value: String) {
        guard let eq = pair.firstIndex(of: "=") else { return (pair, "") }
        return (String(pair[..<eq]).trimmingWhitespace(), String(pair[pair.index(after: eq)...]).trimmingWhitespace())
    }
}
