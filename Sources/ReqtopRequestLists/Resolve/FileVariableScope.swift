/// Which `@name = value` definition a reference sees. File variables are positional, as in the
/// JetBrains client and Visual Studio: a reference uses the latest definition above it, so
/// `@id = 1` … `GET /a/{{id}}` … `@id = 2` … `GET /b/{{id}}` sends `/a/1` and `/b/2`. A name
/// defined only below the reference uses its first definition.
struct FileVariableScope: Sendable {
    private let definitions: [String: [FileVariable]]

    init(_ variables: [FileVariable]) {
        definitions = Dictionary(grouping: variables, by: \.name)
            .mapValues { $0.sorted { $0.location.line < $1.location.line } }
    }

    /// The definition of `name` that a reference on `line` (1-based) sees; `line` nil: the last one.
    func variable(named name: String, seenFromLine line: Int?) -> FileVariable? {
        guard let all = definitions[name] else { return nil }
        guard let line else { return all.last }
        return all.last { $0.location.line < line } ?? all.first
    }
}
