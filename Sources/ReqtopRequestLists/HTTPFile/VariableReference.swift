/// What a `{{…}}` placeholder refers to.
enum VariableReference: Sendable, Hashable {
    /// `{{$uuid}}` and friends.
    case dynamic(DynamicVariable)
    /// `{{login.response.body.$.token}}` and friends.
    case response(ResponseReference)
    /// A file, environment or command-line variable.
    case named(String)

    struct Invalid: Error { var message: String }

    static func parse(_ name: String) throws(Invalid) -> VariableReference {
        if name.hasPrefix("$") {
            guard let dynamic = DynamicVariable(name) else {
                throw Invalid(message: "unknown dynamic variable '\(name)' (supported: \(DynamicVariable.supported))")
            }
            return .dynamic(dynamic)
        }
        if name.contains(".response.") || name.hasSuffix(".response") {
            return .response(try ResponseReference.parse(name))
        }
        return .named(name)
    }
}
