import FoundationEssentials
import ReqtopSync

/// The global variables scripts set while a run goes (`client.global.set`, kept from one request to
/// the next, across the lists and rounds of a run), for the requests that use them. A request's own
/// (`request.variables.set` in its pre-request script) are kept by its list's resolver. Precedence,
/// as in the JetBrains HTTP Client: environment, then global, then the file's `@` variables, then
/// the request's own; `--var` wins over all.
public final class ScriptVariables: Sendable {
    private let globals = Protected<[String: String]>([:])
    /// Evaluates an httpyac `{{ expression }}` with the variables in scope: its value as text, or why not.
    let evaluate: @Sendable (_ expression: String, _ variables: [String: String]) -> Result<String, ExpressionError>

    /// Why an expression has no value (it threw, did not parse, ran too long), located where it can be.
    public struct ExpressionError: Error, Sendable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    public init(evaluate: @escaping @Sendable (_ expression: String, _ variables: [String: String]) -> Result<String, ExpressionError>
                = { _, _ in .failure(ExpressionError(message: "no script engine")) }) {
        self.evaluate = evaluate
    }

    /// The global variables now.
    public var global: [String: String] { globals.snapshot }

    /// Replaces the global variables with what the scripts hold after one ran.
    public func setGlobal(_ values: [String: String]) { globals.withLock { $0 = values } }
}
