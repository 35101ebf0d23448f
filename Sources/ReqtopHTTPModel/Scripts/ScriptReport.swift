/// One `client.test` of a request's script (or a failed `client.assert` outside a test, named
/// `client.assert`).
public struct TestResult: Sendable, Hashable {
    public var name: String
    public var passed: Bool
    /// Why it failed.
    public var message: String?

    public init(name: String, passed: Bool, message: String? = nil) {
        self.name = name
        self.passed = passed
        self.message = message
    }
}

/// A line a request's script wrote (`client.log`), or the error that stopped it (located
/// `file:line:col: message`).
public struct ScriptLog: Sendable, Hashable {
    public enum Level: String, Sendable, Hashable {
        case log, error
    }
    public var level: Level
    public var text: String

    public init(level: Level, text: String) {
        self.level = level
        self.text = text
    }
}
