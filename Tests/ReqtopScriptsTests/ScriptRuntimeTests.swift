import Foundation
import ReqtopHTTPModel
import ReqtopScripts
import XCTest

/// The JetBrains HTTP Client script API in JavaScriptCore, one context for a run.
final class ScriptRuntimeTests: XCTestCase {
    private func script(_ source: String, line: Int = 10) -> Script {
        Script(source: source, file: "/lists/api.http", line: line, column: 3)
    }

    private func response(_ status: Int = 200, json: String, type: String = "application/json; charset=utf-8") -> ScriptInput {
        ScriptInput(request: nil, response: ScriptInput.Response(status: status, headers: [HTTPHeader(name: "Content-Type", value: type),
                                                                                          HTTPHeader(name: "Set-Cookie", value: "a=1"),
                                                                                          HTTPHeader(name: "set-cookie", value: "b=2")],
                                                                 body: json))
    }

    func testAHandlerKeepsATokenForLaterScriptsAndRecordsItsTests() {
        let runtime = ScriptRuntime()
        let outcome = runtime.run(script("""
            client.global.set("token", response.body.json.token);
            client.global.set("count", 3);
            client.test("status is 200", function () { client.assert(response.status === 200, "status " + response.status); });
            client.test("has a token", () => { client.assert(response.body.json.token.length > 100, "short token"); });
            client.log("token", response.body.json.token, {a: 1});
            """), with: response(json: #"{"json": {"token": "abc"}}"#))
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.tests, [TestResult(name: "status is 200", passed: true),
                                       TestResult(name: "has a token", passed: false, message: "short token")])
        XCTAssertEqual(outcome.logs, [#"token abc {"a":1}"#])
        XCTAssertEqual(runtime.globals, ["token": "abc", "count": "3"])
        // A later script of the run reads them; its own `const` does not clash with the first one's.
        let later = runtime.run(script("const t = client.global.get('token'); client.test('sees ' + t, () => {}); const u = 1;"),
                                with: response(json: "{}"))
        let again = runtime.run(script("const t = 2; client.global.clear('count'); client.log(client.global.isEmpty())"), with: response(json: "{}"))
        XCTAssertEqual(later.tests.map(\.name), ["sees abc"])
        XCTAssertNil(again.error)
        XCTAssertEqual(again.logs, ["false"])
        XCTAssertEqual(runtime.globals, ["token": "abc"])
    }

    func testResponseHeadersContentTypeAndANonJSONBody() {
        let outcome = ScriptRuntime().run(script("""
            client.log(response.headers.valueOf("content-type"), response.headers.valuesOf("SET-COOKIE").join("|"),
                       response.contentType.mimeType, response.contentType.charset, typeof response.body, response.body,
                       response.headers.valueOf("x-missing"));
            """), with: response(json: "<p>hi</p>", type: "text/html; charset=ISO-8859-1"))
        XCTAssertEqual(outcome.logs, ["text/html; charset=ISO-8859-1 a=1|b=2 text/html ISO-8859-1 string <p>hi</p> null"])
    }

    func testAPreRequestScriptSetsVariablesForItsRequestOnly() {
        let request = ScriptInput.Request(method: "POST", rawURL: "{{host}}/login", url: "http://h.test/login",
                                          headers: [(name: "X-Id", raw: "{{id}}", value: "7")], rawBody: "", body: "")
        let outcome = ScriptRuntime().run(script("""
            request.variables.set("stamp", request.method + " " + request.url.tryGetSubstituted());
            request.variables.set("id", request.headers.findByName("x-id").tryGetSubstitutedValue());
            request.variables.set("env", request.environment.get("host"));
            """), with: ScriptInput(request: request, environment: ["host": "http://h.test"]))
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.requestVariables, ["stamp": "POST http://h.test/login", "id": "7", "env": "http://h.test"])
    }

    func testAnErrorIsLocatedInTheHTTPFileAndTheRunGoesOn() {
        let runtime = ScriptRuntime()
        let outcome = runtime.run(script("client.global.set('a', 1);\nconst x = response.body.missing.field;", line: 20),
                                  with: response(json: "{}"))
        let error = try? XCTUnwrap(outcome.error)
        XCTAssertEqual(error?.line, 21, "the second line of a script that starts on line 20")
        XCTAssertEqual(error?.file, "/lists/api.http")
        XCTAssertTrue(error?.message.contains("undefined") ?? false, error?.message ?? "")
        XCTAssertEqual(runtime.globals, ["a": "1"], "what it set before the error stays, as in the JetBrains client")
        let syntax = runtime.run(script("client.test('x', () => {", line: 5), with: response(json: "{}"))
        XCTAssertNotNil(syntax.error, "a script that does not parse")
        XCTAssertNil(runtime.run(script("client.log('still here')"), with: response(json: "{}")).error)
    }

    func testAFailedAssertOutsideATestIsAFailedTestAndExitEndsTheScript() {
        let outcome = ScriptRuntime().run(script("""
            client.assert(response.status === 201, "expected 201");
            client.log("not reached");
            """), with: response(json: "{}"))
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.tests, [TestResult(name: "client.assert", passed: false, message: "expected 201")])
        XCTAssertEqual(outcome.logs, [])
        let exited = ScriptRuntime().run(script("client.log('a'); client.exit(); client.log('b');"), with: response(json: "{}"))
        XCTAssertNil(exited.error)
        XCTAssertTrue(exited.exited)
        XCTAssertEqual(exited.logs, ["a"])
    }

    /// A hostile script fails alone: an endless loop is stopped at the limit, and nothing outside the
    /// documented API is there (no require, process, fetch, timers, files).
    func testAHostileScriptIsStoppedAndReachesNothing() {
        let runtime = ScriptRuntime(timeLimit: 0.3)
        let started = Date()
        let loop = runtime.run(script("while (true) {}"), with: response(json: "{}"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(loop.error?.timedOut, true)
        XCTAssertTrue(loop.error?.message.contains("over its 0.3 s limit") ?? false, loop.error?.message ?? "")
        let reach = runtime.run(script("""
            client.log([typeof require, typeof process, typeof fetch, typeof setTimeout, typeof XMLHttpRequest, typeof Deno, typeof Bun].join(","));
            """), with: response(json: "{}"))
        XCTAssertEqual(reach.logs, ["undefined,undefined,undefined,undefined,undefined,undefined,undefined"])
        XCTAssertNotNil(runtime.run(script("require('fs')"), with: response(json: "{}")).error)
        XCTAssertNil(runtime.run(script("client.log(1)"), with: response(json: "{}")).error, "the context still works")
    }
}

extension ScriptRuntimeTests {
    /// `crypto` as the JetBrains reference has it, checked against known digests (RFC 4231 case 2, "abc").
    func testCryptoDigestsAndHMACs() {
        let outcome = ScriptRuntime().run(Script(source: """
            client.log(crypto.sha256().updateWithText("abc").digest().toHex());
            client.log(crypto.md5().updateWithText("abc").digest().toHex());
            client.log(crypto.sha1().updateWithText("a").updateWithText("bc").digest().toBase64());
            client.log(crypto.hmac.sha256().withTextSecret("Jefe").updateWithText("what do ya want for nothing?").digest().toHex());
            client.log(crypto.sha256().updateWithText("é").digest().toHex() === crypto.sha256().updateWithHex("c3a9").digest().toHex());
            client.log(typeof __reqtopDigest);
            """, file: "c.http", line: 1, column: 1), with: ScriptInput(request: nil))
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.logs, [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "900150983cd24fb0d6963f7d28e17f72",
            "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "true",
            "undefined",
        ])
    }
}

extension ScriptRuntimeTests {
    /// `$random` in scripts, as the JetBrains client's generators: their shapes and ranges.
    func testRandomGeneratorsHaveTheirShapes() throws {
        let outcome = ScriptRuntime().run(Script(source: """
            const uuids = new Set();
            for (let i = 0; i < 50; i++) uuids.add($random.uuid);
            client.log(uuids.size, [...uuids].every(u => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u)));
            const ints = Array.from({length: 200}, () => $random.integer(5, 8));
            client.log(ints.every(n => Number.isInteger(n) && n >= 5 && n < 8), new Set(ints).size);
            client.log(/^[a-zA-Z]{12}$/.test($random.alphabetic(12)), /^[0-9a-f]{6}$/.test($random.hexadecimal(6)),
                       /^\\w{9}$/.test($random.alphanumeric(9)), /^[a-z]+@[a-z]+\\.com$/.test($random.email));
            """, file: "r.http", line: 1, column: 1), with: ScriptInput(request: nil))
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.logs, ["50 true", "true 3", "true true true true"])
    }
}

extension ScriptRuntimeTests {
    /// A script that asks for a gigabyte string in one call fails at its line; the process never
    /// holds it (its peak memory stays far below), and the context goes on.
    func testAGigabyteStringIsRefusedWithoutBeingMade() throws {
        func peakKB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            return Int(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let runtime = ScriptRuntime()
        let before = peakKB()
        for source in ["const s = 'x'.repeat(2 ** 30);", "const s = ''.padStart(2 ** 30, 'ab');", "const s = 'ab'.padEnd(1e9);"] {
            let outcome = runtime.run(script(source, line: 3), with: response(json: "{}"))
            XCTAssertEqual(outcome.error?.line, 3, source)
            XCTAssertTrue(outcome.error?.message.contains("over reqtop's 67108864 limit") ?? false, outcome.error?.message ?? source)
        }
        XCTAssertLessThan(peakKB() - before, 200 * 1024, "no gigabyte was allocated")
        let fine = runtime.run(script("client.log('ab'.repeat(3), 'x'.padStart(3, '-'))"), with: response(json: "{}"))
        XCTAssertEqual(fine.logs, ["ababab --x"])
    }
}
