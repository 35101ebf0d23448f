/// What a `{{…}}` placeholder refers to.
enum VariableReference: Sendable, Hashable {
    /// `{{$uuid}}` and friends.
    case dynamic(DynamicVariable)
    /// `{{login.response.body.$.token}}` and friends.
    case response(ResponseReference)
    /// A file, environment or command-line variable.
    case named(String)
    /// Something another client evaluates and reqtop does not (why, as a message): the request that
    /// uses it is not sent; the rest of the list runs.
    case otherClient(String)
    /// An httpyac JavaScript expression (`{{ new Date().toISOString() }}`): evaluated in the run's
    /// script context when the list's scripts run.
    case expression(String)

    struct Invalid: Error { var message: String }

    static func parse(_ name: String) throws(Invalid) -> VariableReference {
        if name.hasPrefix("$") {
            if let why = otherClientReason(name) { return .otherClient(why) }
            guard let dynamic = DynamicVariable(name) else {
                throw Invalid(message: DynamicVariable.problem(name))
            }
            return .dynamic(dynamic)
        }
        if name.containsBytes(".response.") || name.hasSuffix(".response") {
            return .response(try ResponseReference.parse(name))
        }
        if let why = otherClientReason(name) { return .otherClient(why) }
        if !name.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) { return .expression(name) }
        return .named(name)
    }

    /// Why `{{name}}` is another client's: a token it fetches, a kulala `{{req.request.…}}` value,
    /// or an httpyac JavaScript expression; nil for anything reqtop reads.
    private static func otherClientReason(_ name: String) -> String? {
        let auth = "reqtop does not run auth flows (use a variable, e.g. {{token}} with --var token=…)"
        if name.hasPrefix("$auth.") { return "asks the JetBrains client for an OAuth 2.0 token; " + auth }
        if name.hasPrefix("$aadToken") || name.hasPrefix("$aadV2Token") { return "asks REST Client for an Azure AD token; " + auth }
        if name.hasPrefix("$") { return nil }
        let parts = name.split(separator: ".", maxSplits: 2)
        if parts.count == 3, parts[1] == "request" {
            return "refers to what \(quoting: parts[0]) sent (kulala); reqtop substitutes only its response ('\(parts[0]).response.…')"
        }
        return nil
    }
}
