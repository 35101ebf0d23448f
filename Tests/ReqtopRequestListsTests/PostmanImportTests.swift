import Foundation
import ReqtopRequestLists
import XCTest

/// Postman collections (v2.0 and v2.1 exports) read as request lists, from real exports kept by
/// Insomnia's importer tests (`Fixtures/Wild/formats`, cited in `Wild/SOURCES.md`).
final class PostmanImportTests: XCTestCase {
    private func wild(_ file: String) -> String {
        ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild/formats/\(file)")
    }

    func testAV20CollectionReadsFoldersAuthFormsAndGraphQL() throws {
        let list = try RequestListLoader.load(path: wild("insomnia__complex-v2_0-input.json"))
        XCTAssertEqual(list.specs.map(\.name), ["First Folder / {{base_url}}/api/users", "First Folder / Urlencoded Form Test",
                                                "Test Request Raw Body", "Test Request Empty Raw Body", "Test Request Unknown Body",
                                                "Test Request GraphQL Body"])
        XCTAssertEqual(list.specs.map(\.method), ["POST", "POST", "POST", "POST", "POST", "POST"])
        XCTAssertTrue(list.warnings.contains { $0.message.contains("its unknown body is not read") && $0.location?.line == 107 },
                      "\(list.warnings)")
        let resolver = RequestResolver(list: list, variables: VariableContext(commandLine: ["base_url": "http://x.test", "password": "p",
                                                                                            "username": "u"]))
        // The folder's basic auth, encoded once its variables are in.
        let form = try resolver.resolve(1)
        XCTAssertEqual(form.url.absoluteString, "http://x.test/api/users")
        XCTAssertEqual(form.headers.first { $0.name == "Authorization" }?.value, "Basic " + Data("username:password".utf8).base64EncodedString())
        XCTAssertEqual(String(decoding: form.body.data ?? Data(), as: UTF8.self), "foo=bar")
        XCTAssertEqual(form.headers.first { $0.name == "Content-Type" }?.value, "application/x-www-form-urlencoded")
        let graphQL = try resolver.resolve(5)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: graphQL.body.data ?? Data()) as? [String: Any])
        XCTAssertTrue((body["query"] as? String)?.hasPrefix("mutation loginUser") ?? false)
        XCTAssertEqual(body["variables"] as? [String: String], ["password": "p", "username": "u"])
        // A form-data file on the exporter's machine: that request is not sent, saying why; the list still validates.
        XCTAssertNoThrow(try resolver.validate())
        XCTAssertThrowsError(try resolver.resolve(0)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.needsRequestScript, true)
            XCTAssertTrue(error?.message.contains("/home/user/test.txt") ?? false, error?.message ?? "")
        }
    }

    func testAV21CollectionWithOAuth2IsSentWithoutItAndSaysSo() throws {
        let list = try RequestListLoader.load(path: wild("insomnia__postman-export-oauth2-v2_1-input.json"))
        XCTAssertEqual(list.specs.count, 1)
        XCTAssertTrue(list.warnings.contains { $0.message.contains("its oauth2 auth is not applied") }, "\(list.warnings)")
        XCTAssertNil(list.specs[0].headers.first { $0.name == "Authorization" })
    }

    /// Written by hand from Postman's v2.1 schema: the parts the exports above do not have.
    func testBearerAPIKeyInheritanceDisabledPartsAndScripts() throws {
        let text = #"""
            {
              "info": {"name": "api", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
              "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
              "variable": [{"key": "host", "value": "http://h.test"}, {"key": "token", "value": "t-1"}],
              "item": [
                {"name": "users", "item": [
                  {"name": "list", "request": {"method": "GET", "header": [{"key": "X-Off", "value": "1", "disabled": true}],
                   "url": {"raw": "{{host}}/users?page=2&debug=1", "query": [{"key": "page", "value": "2"}, {"key": "debug", "value": "1", "disabled": true}]}},
                   "event": [{"listen": "test", "script": {"exec": ["pm.test('ok', () => pm.response.to.have.status(200));"]}}]},
                  {"name": "open", "request": {"method": "GET", "auth": {"type": "noauth"}, "url": "{{host}}/open"}},
                  {"name": "keyed", "request": {"method": "POST", "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "api_key"},
                   {"key": "value", "value": "k-9"}, {"key": "in", "value": "query"}]},
                   "body": {"mode": "raw", "raw": "{\"a\": 1}", "options": {"raw": {"language": "json"}}}, "url": "{{host}}/keyed"}}
                ]}
              ]
            }
            """#
        let path = NSTemporaryDirectory() + "/reqtop-postman-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let list = try RequestListLoader.load(path: path)
        XCTAssertEqual(list.specs.map(\.name), ["users / list", "users / open", "users / keyed"])
        let resolver = RequestResolver(list: list)
        let first = try resolver.resolve(0)
        XCTAssertEqual(first.url.absoluteString, "http://h.test/users?page=2", "the disabled parameter left out")
        XCTAssertEqual(first.headers.map(\.description), ["Authorization: Bearer t-1"], "the collection's auth; the disabled header left out")
        XCTAssertEqual(try resolver.resolve(1).headers, [], "noauth")
        let keyed = try resolver.resolve(2)
        XCTAssertEqual(keyed.url.absoluteString, "http://h.test/keyed?api_key=k-9")
        XCTAssertEqual(keyed.headers.first { $0.name == "Content-Type" }?.value, "application/json")
        XCTAssertEqual(list.specs[0].scripts.map(\.kind), [.responseHandler], "its test script, kept to run")
        XCTAssertEqual(list.specs[0].scripts.first?.location.line, 9, "located at its exec line")
        // And it converts to .http, read back as the same requests.
        let http = try RequestListLoader.convert(list, to: .http, redaction: nil)
        let back = try RequestListLoader.load(text: String(decoding: http.data, as: UTF8.self), path: "/tmp/back.http", format: .http)
        XCTAssertEqual(try RequestResolver(list: back).resolve(2).url, keyed.url)
    }
}

extension PostmanImportTests {
    /// `--env-file`: a Postman environment's enabled values, its secrets named as such; a broken
    /// file is an error at its line and column.
    func testAPostmanEnvironmentFile() throws {
        let path = NSTemporaryDirectory() + "/reqtop-env-\(UUID().uuidString).postman_environment.json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"""
            {"id": "e", "name": "dev", "values": [
              {"key": "base_url", "value": "http://h.test", "enabled": true},
              {"key": "password", "value": "s3cret", "type": "secret", "enabled": true},
              {"key": "off", "value": "no", "enabled": false}
            ], "_postman_variable_scope": "environment"}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = try PostmanEnvironment.load(path: path)
        XCTAssertEqual(environment.name, "dev")
        XCTAssertEqual(environment.values, ["base_url": "http://h.test", "password": "s3cret"])
        XCTAssertEqual(environment.secretValues, ["s3cret"])
        try #"{"values": [ {"key": "a" "value": 1} ]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PostmanEnvironment.load(path: path)) { error in
            let error = error as? RequestListError
            XCTAssertEqual(error?.line, 1)
            XCTAssertGreaterThan(error?.column ?? 0, 1)
        }
    }
}

/// Real Postman collections from other projects (`Fixtures/Wild/postman`, cited in its SOURCES.md).
final class RealPostmanCollectionTests: XCTestCase {
    func testRealCollectionsReadAndTheOnesWithEnvironmentsResolve() throws {
        let folder = ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures/Wild/postman")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let collections = names.filter { !$0.contains("environment") && $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(collections.count, 15)
        var requests = 0
        var resolvedWithEnvironment = 0
        for name in collections {
            let list = try RequestListLoader.load(path: (folder as NSString).appendingPathComponent(name))
            // One export has no requests at all (`"item": []`).
            XCTAssertEqual(list.specs.isEmpty, name.hasPrefix("Postman-Collections__Get Initial Token"), name)
            requests += list.specs.count
            let stem = name.components(separatedBy: ".postman_collection").first ?? name
            guard let environment = names.first(where: { $0.hasPrefix(String(stem.prefix(20))) && $0.contains("environment") }),
                  ["crAPI", "vapi__", "forge-tut", "newman__inh"].contains(where: { name.hasPrefix($0) }) else { continue }
            let values = try PostmanEnvironment.load(path: (folder as NSString).appendingPathComponent(environment)).values
            let resolver = RequestResolver(list: list, variables: VariableContext(environment: values))
            XCTAssertNoThrow(try resolver.validate(), name)
            for index in list.specs.indices where resolver.dependencies(of: index).isEmpty {
                // Every request resolves, or waits for what a script sets (not an error here), or has a URL
                // only a script fills in (the environment holds it empty: `{{ListLayersAppUrl}}`).
                do { _ = try resolver.resolve(index) } catch where error.needsRequestScript || error.message.hasPrefix("invalid URL ''") {} catch {
                    XCTFail("\(name) #\(index + 1): \(error)")
                }
            }
            resolvedWithEnvironment += 1
        }
        XCTAssertEqual(resolvedWithEnvironment, 4)
        XCTAssertGreaterThanOrEqual(requests, 250)
    }
}
