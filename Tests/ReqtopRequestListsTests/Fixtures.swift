import Foundation
import ReqtopRequestLists
import XCTest

/// Paths of the fixture files next to this source file.
enum Fixtures {
    static let directory: String = {
        ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures")
    }()

    static func path(_ relative: String) -> String {
        (directory as NSString).appendingPathComponent(relative)
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    static func load(_ relative: String) throws -> RequestList {
        try RequestListLoader.load(path: path(relative))
    }

    /// The error loading (and validating) a fixture must produce.
    static func loadError(_ relative: String, variables: VariableContext = VariableContext(),
                          file: StaticString = #filePath, line: UInt = #line) -> RequestListError? {
        do {
            let list = try RequestListLoader.load(path: path(relative))
            try RequestResolver(list: list, variables: variables).validate()
            XCTFail("expected an error loading \(relative)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}

/// A canned response for chaining tests.
func jsonResponse(_ json: String, status: Int = 200, headers: [HTTPHeader] = []) -> RecordedResponse {
    RecordedResponse(status: status, headers: headers + [HTTPHeader(name: "Content-Type", value: "application/json")],
                     body: Data(json.utf8))
}

/// The curl command for `spec` taken literally (body files, if any, are not written); nil when it does not resolve.
func curlCommand(_ spec: RequestSpec) -> String? {
    var files = BodyFiles(prefix: "test")
    let list = RequestList(specs: [spec], sourcePath: "spec.curl", format: .curl)
    return (try? RequestResolver(list: list).resolve(0)).map { CurlWriter.command(for: $0, bodyFiles: &files, redaction: SecretPolicy().redaction) }
}
