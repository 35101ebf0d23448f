import Foundation

/// `application/x-www-form-urlencoded` encoding.
enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")

    static func encodeComponent(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacingOccurrences(of: "%20", with: "+")
    }

    static func encode(_ fields: [FormField]) -> String {
        fields.map { encodeComponent($0.name) + "=" + encodeComponent($0.value) }.joined(separator: "&")
    }

    static func decodeComponent(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    static func decode(_ text: String) -> [FormField] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return FormField(name: decodeComponent(String(parts[0])), value: parts.count > 1 ? decodeComponent(String(parts[1])) : "")
        }
    }
}
