import Foundation
@testable import ReqtopRequestLists
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

/// Insomnia's YAML exports, through reqtop's reader of the YAML js-yaml writes.
final class InsomniaYAMLTests: XCTestCase {
    private func yaml(_ text: String) throws -> JSONValue { try YAMLReader.parse(text).value }

    func testTheYAMLInsomniaWritesReadsAsJSON() throws {
        let value = try yaml("""
            _type: export
            __export_format: 4
            # a comment
            resources:
              - _id: req_1
                url: "{{ _.base }}/a"
                description: ""
                body:
                  mimeType: application/json
                  text: |-
                    {
                      "a": 1
                    }
                folded: >-
                  one
                  two

                  three
                quoted: "a long \\"text\\" folded
                  over lines\\n and \\
                  joined"
                single: 'it''s # not a comment'
                list: [a, "b c", 3]
                empty: { }
                nothing:
                metaSortKey: -1623325084733
                flag: true
                plain: GET /path # a comment
              - name: second
            """)
        let resource = try XCTUnwrap(value["resources"].flatMap { if case .array(let items) = $0 { items.first } else { nil } })
        XCTAssertEqual(resource["url"], .string("{{ _.base }}/a"))
        XCTAssertEqual(resource["description"], .string(""))
        XCTAssertEqual(resource["body"]?["text"], .string("{\n  \"a\": 1\n}"))
        XCTAssertEqual(resource["folded"], .string("one two\nthree"))
        XCTAssertEqual(resource["quoted"], .string("a long \"text\" folded over lines\n and joined"))
        XCTAssertEqual(resource["single"], .string("it's # not a comment"))
        XCTAssertEqual(resource["list"], .array([.string("a"), .string("b c"), .number("3")]))
        XCTAssertEqual(resource["empty"], .object([]))
        XCTAssertEqual(resource["nothing"], .null)
        XCTAssertEqual(resource["metaSortKey"], .number("-1623325084733"))
        XCTAssertEqual(resource["flag"], .bool(true))
        XCTAssertEqual(resource["plain"], .string("GET /path"))
        XCTAssertEqual(value["__export_format"], .number("4"))
    }

    func testMalformedYAMLIsLocated() {
        for (text, line, column) in [("a: 1\n  b: 2\n", 2, 3), ("a: \"open\n", 1, 4), ("a: &anchor 1\n", 1, 4), ("a: 1\n---\nb: 2\n", 2, 1)] {
            XCTAssertThrowsError(try YAMLReader.parse(text), text) { error in
                guard let failure = error as? YAMLReader.Failure else { return XCTFail("\(error)") }
                XCTAssertEqual([failure.line, failure.column], [line, column], "\(text.debugDescription): \(failure.message)")
            }
        }
    }

    /// Found by `make fuzz`: a quoted key whose line ends in a backslash ran past the line's end (a
    /// trap); it is a scalar, or a located error, like any other text that is no key.
    func testAQuotedKeyEndingInABackslashIsNoKey() {
        XCTAssertNil(YAMLReader.mappingKey("\"ab\\"))
        XCTAssertNil(YAMLReader.mappingKey("\"\\"))
        XCTAssertEqual(YAMLReader.mappingKey("\"a\\\"b\": 1")?.key, "a\\\"b")
        for text in ["\"a\\", "- \"x\\\n", "k:\n  \"\\"] {
            _ = try? YAMLReader.parse(text) // a value or a located error, never a crash
        }
    }

    /// Real Insomnia exports from other projects (`Fixtures/Wild/insomnia`, cited in its SOURCES.md):
    /// every one reads, the YAML ones (CRLF, `type: export`, nested environment values) included.
    func testRealInsomniaExportsRead() throws {
        let folder = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild/insomnia")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertEqual(files.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.count, 10)
        var requests = 0
        for file in files {
            let list = try RequestListLoader.load(path: (folder as NSString).appendingPathComponent(file))
            XCTAssertFalse(list.specs.isEmpty, file)
            requests += list.specs.count
        }
        XCTAssertGreaterThanOrEqual(requests, 300)
        // `{{ _.API_URL }}` from the sub-environment; `{{ _.creds.adminUser }}` from a nested value.
        let nest = try RequestListLoader.load(path: (folder as NSString).appendingPathComponent("nestjs-libs-example__insomnia.yaml"))
        XCTAssertEqual(try RequestResolver(list: nest).resolve(0).url.absoluteString.hasPrefix("http://localhost:3000/"), true)
        let spring = try RequestListLoader.load(path: (folder as NSString).appendingPathComponent("spring-boot-microservice-example__insomnia.yml"))
        let resolver = RequestResolver(list: spring)
        try resolver.validate()
        XCTAssertTrue(spring.specs.indices.contains { (try? resolver.resolve($0))?.headers.value(for: "Authorization")?.hasPrefix("Basic ") == true })
    }
}
