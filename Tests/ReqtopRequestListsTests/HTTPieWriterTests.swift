import Foundation
import ReqtopRequestLists
import XCTest

final class HTTPieWriterTests: XCTestCase {
    func testHeadersInOrderBodyRawAndOptions() {
        var request = HTTPRequest(method: "POST", url: HTTPURL(string: "https://a.test/x?q=1")!,
                                  headers: [HTTPHeader(name: "X-B", value: "it's"), HTTPHeader(name: "X-Empty", value: ""),
                                            HTTPHeader(name: "X-B", value: "2")],
                                  body: .data(Data(#"{"a":1}"#.utf8)))
        request.options.followRedirects = false
        request.options.insecure = true
        XCTAssertEqual(HTTPieWriter.command(for: request, redaction: SecretPolicy().redaction),
                       #"http --ignore-stdin --verify=no 'POST' 'https://a.test/x?q=1' $'X-B:it\'s' 'X-Empty;' 'X-B:2' --raw='{"a":1}'"#)
    }

    func testABinaryBodyHasNoCommandLine() {
        let request = HTTPRequest(method: "PUT", url: HTTPURL(string: "https://a.test/")!, body: .data(Data([0, 1, 2])))
        XCTAssertNil(HTTPieWriter.command(for: request, redaction: SecretPolicy().redaction))
    }
}
