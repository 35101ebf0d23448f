import Foundation
import ReqtopTestServer
import XCTest

/// A test case with a fresh embedded ``TestServer`` on 127.0.0.1 per test, stopped after it.
open class EmbeddedServerTestCase: XCTestCase {
    package var server: TestServer!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer(keepsBodies: true)
        server.start()
    }

    override open func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }
}
