import Foundation
import ReqtopNetworking
import ReqtopTasks
import XCTest

/// How `--dry-run` shows a body: text as it is, a multipart body part by part, anything else by size.
final class DryRunTests: XCTestCase {
    private func body(_ bytes: [UInt8], contentType: String?) -> String {
        let request = HTTPRequest(method: "POST", url: HTTPURL(string: "http://127.0.0.1:1/")!,
                                  headers: contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? [], body: .data(Data(bytes)))
        let text = DryRun.text(for: request, configuration: SessionConfiguration())
        guard let blank = text.range(of: "\n\n") else { XCTFail("no body in:\n\(text)"); return "" }
        return String(text[blank.upperBound...].dropLast()) // the body, without the line break DryRun ends it with
    }

    private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]

    func testAMultipartBodyShowsItsTextPartsAndTheSizeOfEachBinaryOne() {
        let bytes = Array("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ntext\r\n--b1\r\nContent-Type: image/png\r\n\r\n".utf8)
            + png + Array("\r\n--b1--\r\n".utf8)
        XCTAssertEqual(body(bytes, contentType: "multipart/form-data; boundary=b1"),
                       "--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ntext\r\n--b1\r\nContent-Type: image/png\r\n\r\n"
                       + "<6 bytes of binary data>\r\n--b1--\r\n")
    }

    func testAQuotedBoundaryABinaryPreambleAndLineFeedsOnly() {
        let bytes = png + Array("\n--\"odd\"?".utf8) // not a delimiter: the boundary is `odd`, unquoted
            + Array("\r\n--odd\nName: x\n\n".utf8) + png + Array("\r\n--odd--".utf8)
        XCTAssertEqual(body(bytes, contentType: "multipart/mixed; charset=x; Boundary=\"odd\""),
                       "<15 bytes of binary data>\r\n--odd\nName: x\n\n<6 bytes of binary data>\r\n--odd--")
    }

    func testABinaryBodyThatIsNotMultipartOrHasNoDelimiterIsShownBySize() {
        XCTAssertEqual(body(png, contentType: "image/png"), "<6 bytes of binary data>")
        XCTAssertEqual(body(png, contentType: "multipart/form-data; boundary=zz"), "<6 bytes of binary data>")
        XCTAssertEqual(body(png, contentType: nil), "<6 bytes of binary data>")
        XCTAssertEqual(body(Array("plain é".utf8), contentType: "multipart/form-data; boundary=zz"), "plain é")
    }
}
