import Foundation
import ReqtopRequestLists
import XCTest

/// Insomnia v4 exports read as request lists, from Insomnia's own fixture (`Fixtures/Wild/formats`,
/// cited in `Wild/SOURCES.md`) and a hand-written one for what it lacks.
final class InsomniaImportTests: XCTestCase {
    func testTheRealExportReadsFoldersEnvironmentsHeadersAndParameters() throws {
        let path = ((#filePath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("Fixtures/Wild/formats/insomnia__insomnia_v4.json")
        let list = try RequestListLoader.load(path: path)
        XCTAssertEqual(list.specs.count, 13)
        XCTAssertEqual(list.specs.first?.name, "Example Folder / Example 2", "a folder's request, named after it")
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: ["orderId": "7"]))
        // The base environment's `{{ scheme }}://{{ host }}{{ base_path }}`, from the sub-environment's values.
        let inventory = try XCTUnwrap(list.specs.firstIndex { $0.name == "Returns pet inventories by status" })
        let request = try resolver.resolve(inventory)
        XCTAssertEqual(request.url.absoluteString, "http://petstore.swagger.io/v2/store/inventory")
        XCTAssertEqual(request.headers.first { $0.name == "api_key" }?.value, "apiKey")
        let login = try resolver.resolve(try XCTUnwrap(list.specs.firstIndex { $0.name == "Logs user into the system" }))
        XCTAssertEqual(login.url.absoluteString, "http://petstore.swagger.io/v2/user/login?username=string&password=string", "its parameters")
        let pet = try resolver.resolve(try XCTUnwrap(list.specs.firstIndex { $0.name == "Add a new pet to the store" }))
        XCTAssertEqual(pet.headers.first { $0.name == "Content-Type" }?.value, "application/json")
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: pet.body.data ?? Data()))
    }

    func testAuthFormsDisabledPartsAndTemplateTags() throws {
        let text = #"""
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "wrk_1", "_type": "workspace", "parentId": null, "name": "w"},
              {"_id": "env_1", "_type": "environment", "parentId": "wrk_1", "name": "Base", "data": {"host": "http://base.test", "who": "ada"}},
              {"_id": "env_2", "_type": "environment", "parentId": "env_1", "name": "dev", "data": {"host": "http://dev.test"}},
              {"_id": "env_3", "_type": "environment", "parentId": "env_1", "name": "prod", "data": {"host": "http://prod.test"}},
              {"_id": "req_2", "_type": "request", "parentId": "wrk_1", "metaSortKey": 2, "name": "form", "method": "post", "url": "{{ host }}/form",
               "body": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a", "value": "{{ who }}"}, {"name": "b", "value": "x", "disabled": true}]},
               "headers": [{"name": "X-Off", "value": "1", "disabled": true}],
               "authentication": {"type": "basic", "username": "{{ who }}", "password": "pw"}},
              {"_id": "req_1", "_type": "request", "parentId": "wrk_1", "metaSortKey": 1, "name": "tagged", "method": "GET",
               "url": "{{ host }}/t", "headers": [{"name": "X-Id", "value": "{% response 'body', 'req_2', '$.id' %}"}],
               "authentication": {"type": "bearer", "token": "tok"}}
            ]}
            """#
        let path = NSTemporaryDirectory() + "/reqtop-insomnia-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let list = try RequestListLoader.load(path: path)
        XCTAssertEqual(list.specs.map(\.name), ["tagged", "form"], "in sort-key order")
        XCTAssertTrue(list.warnings.contains { $0.message.contains("the first, 'dev', is used") }, "\(list.warnings)")
        XCTAssertTrue(list.warnings.contains { $0.message.contains("template tags") }, "\(list.warnings)")
        let resolver = RequestResolver(list: list)
        let tagged = try resolver.resolve(0)
        XCTAssertEqual(tagged.url.absoluteString, "http://dev.test/t", "the sub-environment's value over the base one")
        XCTAssertEqual(tagged.headers.first { $0.name == "Authorization" }?.value, "Bearer tok")
        let form = try resolver.resolve(1)
        XCTAssertEqual(form.method, "POST")
        XCTAssertEqual(String(decoding: form.body.data ?? Data(), as: UTF8.self), "a=ada")
        XCTAssertEqual(form.headers.map(\.name), ["Authorization", "Content-Type"])
        XCTAssertEqual(form.headers.first?.value, "Basic " + Data("ada:pw".utf8).base64EncodedString())
    }
}
