import ReqtopHTTPModel
import XCTest

/// A test case that compares formats byte for byte or by round trip, so it runs with secrets in
/// clear (`--include-secrets`); redaction has tests of its own.
open class SecretsInClearTestCase: XCTestCase {
    override open func setUp() {
        super.setUp()
        Redaction.isEnabled = false
    }

    override open func tearDown() {
        Redaction.isEnabled = true
        super.tearDown()
    }
}
