/// A reference to part of an earlier request's response: `name.response.body.$.a[0]` (also
/// `name.response.body.a[0]`, as REST Client reads it), `name.response.headers.Location`,
/// `name.response.status`, and kulala's `name.response.cookies.NAME.value` (a cookie the response set).
public struct ResponseReference: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        /// The body, or a JSONPath into it.
        case body(JSONPath?)
        /// A header, matched case-insensitively.
        case header(String)
        case status
        /// The value of the cookie of this name a `Set-Cookie` field of the response sets.
        case cookie(String)
    }

    /// The referenced request's name.
    public var requestName: String
    public var part: Part


    static func parse(_ text: String) throws(VariableReference.Invalid) -> ResponseReference {
        let usage = "expected NAME.response.body.$.path, NAME.response.headers.Header-Name or NAME.response.status"
        guard let range = text.byteRange(of: ".response") else {
            throw VariableReference.Invalid(message: "invalid response reference \(quoting: text): \(usage)")
        }
        let name = String(text[..<range.lowerBound])
        var rest = Substring(text[range.upperBound...])
        guard !name.isEmpty else { throw VariableReference.Invalid(message: "missing request name in \(quoting: text): \(usage)") }
        if rest == ".status" { return ResponseReference(requestName: name, part: .status) }
        if rest.hasPrefix(".headers.") {
            rest = rest.dropFirst(".headers.".count)
            guard !rest.isEmpty else { throw VariableReference.Invalid(message: "missing header name in \(quoting: text): \(usage)") }
            return ResponseReference(requestName: name, part: .header(String(rest)))
        }
        if rest.hasPrefix(".cookies.") {
            // kulala: `.cookies.NAME.value` (the cookie's other attributes are not offered).
            let cookie = rest.dropFirst(".cookies.".count)
            guard cookie.hasSuffix(".value"), cookie.count > ".value".count else {
                throw VariableReference.Invalid(message: "\(quoting: text): of a cookie, reqtop reads the value only: NAME.response.cookies.COOKIE.value")
            }
            return ResponseReference(requestName: name, part: .cookie(String(cookie.dropLast(".value".count))))
        }
        if rest == ".body" || rest == ".body.*" { return ResponseReference(requestName: name, part: .body(nil)) }
        if rest.hasPrefix(".body.") {
            var pathText = String(rest.dropFirst(".body.".count))
            // VS Code REST Client hands the path to jsonpath-plus, which reads one without `$` from the
            // root: `login.response.body.access_token` is `$.access_token`.
            if !pathText.hasPrefix("$") { pathText = (pathText.hasPrefix("[") ? "$" : "$.") + pathText }
            do {
                return ResponseReference(requestName: name, part: .body(try JSONPath(pathText)))
            } catch {
                throw VariableReference.Invalid(message: "\(error.message) in \(quoting: text)")
            }
        }
        throw VariableReference.Invalid(message: "invalid response reference \(quoting: text): \(usage)")
    }
}
