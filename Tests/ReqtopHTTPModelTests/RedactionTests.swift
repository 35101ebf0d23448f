import Foundation
import ReqtopHTTPModel
import XCTest

/// What counts as a secret and how it is hidden in exports.
final class RedactionTests: XCTestCase {
    private let redaction = Redaction(values: ["tok-PRIVATE-1234", "abc"])

    func testCredentialHeadersKeepWhatHelpsToDebug() {
        let headers = redaction.headers([
            HTTPHeader(name: "Authorization", value: "Bearer eyJhbGciOi.x.y"),
            HTTPHeader(name: "proxy-authorization", value: "Basic dXNlcjpwdw=="),
            HTTPHeader(name: "Cookie", value: "session=s3cr3t; theme=dark"),
            HTTPHeader(name: "Set-Cookie", value: "sid=42; Path=/; HttpOnly; Secure"),
            HTTPHeader(name: "X-Api-Key", value: "k-123"),
            HTTPHeader(name: "X-Auth-Token", value: "t-123"),
            HTTPHeader(name: "Content-Type", value: "application/json"),
            HTTPHeader(name: "X-Trace", value: "a tok-PRIVATE-1234 b"),
            HTTPHeader(name: "Authorization", value: "Bearer {{token}}"),
        ])
        XCTAssertEqual(headers.map(\.value), [
            "Bearer [redacted]", "Basic [redacted]", "session=[redacted]; theme=[redacted]", "sid=[redacted]; Path=/; HttpOnly; Secure",
            "[redacted]", "[redacted]", "application/json", "a [redacted] b", "Bearer {{token}}",
        ], "schemes, cookie names and attributes stay; a {{reference}} is no secret; names and order unchanged")
        XCTAssertEqual(headers.map(\.name), ["Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token",
                                             "Content-Type", "X-Trace", "Authorization"])
    }

    func testURLUserInfoAndSecretQueryValuesAreHidden() {
        XCTAssertEqual(redaction.url("https://user:pw@example.test:8443/a?token=x&page=2&api_key=y&Signature=z&q=secretive#frag"),
                       "https://[redacted]@example.test:8443/a?token=[redacted]&page=2&api_key=[redacted]&Signature=[redacted]&q=secretive#frag")
        XCTAssertEqual(redaction.url("http://example.test/?key={{key}}&password=p"), "http://example.test/?key={{key}}&password=[redacted]")
        XCTAssertNotNil(HTTPURL(string: redaction.url("https://user:pw@example.test/")), "a redacted URL is still a URL")
    }

    /// Without private values a URL is first read on its bytes (every event line has one): what it
    /// lets through unchanged must be what the full redaction would leave unchanged.
    func testTheByteLevelURLCheckLetsNoSecretThrough() {
        let plain = Redaction(values: [])
        let hidden = [
            ("http://u:p@h.test/", "http://[redacted]@h.test/"),
            ("http://h.test/a?i=1&TOKEN=x", "http://h.test/a?i=1&TOKEN=[redacted]"),
            ("http://h.test/a?x=1&Key=v#f", "http://h.test/a?x=1&Key=[redacted]#f"),
            ("http://h.test/?%74oken=x", "http://h.test/?%74oken=[redacted]"),
            ("http://h.test/?\u{212A}EY=x", "http://h.test/?\u{212A}EY=[redacted]"),
            ("http://h.test/?client_secret=s&page=2", "http://h.test/?client_secret=[redacted]&page=2"),
            ("http://h.test/?&&access_token=t&", "http://h.test/?&&access_token=[redacted]&"),
        ]
        for (url, expected) in hidden {
            XCTAssertFalse(Redaction.hasNothingToHide(url: url), url)
            XCTAssertEqual(plain.url(url), expected)
        }
        for url in ["http://h.test/files/100b.bin?i=42", "http://h.test/a@b?q=1", "http://h.test/#token=x", "http://h.test/?token",
                    "http://h.test/?keyboard=1&author=me&sort=asc", "http://h.test", "http://h.test/?"] {
            XCTAssertTrue(Redaction.hasNothingToHide(url: url), url)
            XCTAssertEqual(plain.url(url), url)
        }
    }

    /// The byte search behind redaction and the list's script checks: every candidate of the first
    /// byte is tried, up to a needle that ends the text.
    func testByteSearchFindsANeedleAfterFalseStarts() {
        let cases: [(String, String, Bool)] = [
            ("a.b.c/x.js", ".js", true), ("..j.js", ".js", true), ("aab", "ab", true), ("abc", "abc", true), ("abc", "", true),
            ("ab", "abc", false), ("a.jx.j", ".js", false), ("", "a", false), ("héllo wörld", "ö", true), ("{%", "{%", true), ("{ %", "{%", false),
        ]
        for (text, needle, expected) in cases {
            XCTAssertEqual(text.containsBytes(needle), expected, "\(text.debugDescription) ∋ \(needle.debugDescription)")
            XCTAssertEqual(text[...].containsBytes(needle), expected, "as a substring")
        }
    }

    func testPrivateValuesAreReplacedEverywhereAndShortOnesIgnored() {
        XCTAssertEqual(redaction.text("x tok-PRIVATE-1234 abc"), "x [redacted] abc", "values under 4 characters are too common to hide")
        XCTAssertEqual(String(decoding: redaction.body(Data("{\"t\":\"tok-PRIVATE-1234\"}".utf8)), as: UTF8.self), "{\"t\":\"[redacted]\"}")
    }

    func testARequestsOwnSecretsAreHiddenWhereTheyComeBack() {
        let echo = redaction.adding(secretsOf: [HTTPHeader(name: "Cookie", value: "session=s3cr3t")], url: "http://x/?token=abc123")
        XCTAssertEqual(echo.text("{\"cookie\":\"session=s3cr3t\",\"token\":\"abc123\"}"),
                       "{\"cookie\":\"session=[redacted]\",\"token\":\"[redacted]\"}")
    }

    func testWhatIsASecretName() {
        for name in ["Authorization", "Cookie", "Set-Cookie", "X-API-Key", "X-Amz-Security-Token", "X-CSRF-Token", "Api-Key",
                     "PROXY-AUTHORIZATION", "set-cookie2", "X-Session-Id", "x-to\u{212A}en" /* Kelvin sign: "token" lowercased */] {
            XCTAssertTrue(Redaction.isSecretHeader(name), name)
        }
        for name in ["Content-Type", "Accept", "X-Request-Id", "Host", "Content-MD5", "Cache-Control", "Content-Token", "Accept-Secret",
                     "Authorization-Hint", "Cookie2", "Étag"] {
            XCTAssertFalse(Redaction.isSecretHeader(name), name)
        }
        // Percent-escaped and non-ASCII names are decoded and case-folded as Unicode: "K" is the Kelvin sign.
        for name in ["token", "access_token", "key", "client_secret", "password", "sig", "X-Amz-Signature", "%74oken", "api%5Fkey", "\u{212A}EY"] {
            XCTAssertTrue(Redaction.isSecretParameter(name), name)
        }
        for name in ["page", "q", "author", "keyboard", "sort"] {
            XCTAssertFalse(Redaction.isSecretParameter(name), name)
        }
    }

    func testAQueryWithNoSecretIsReturnedAsItIsAndOneWithSecretsHasOnlyTheirValuesHidden() {
        let redaction = Redaction(values: [])
        for query in ["a=1&b=2", "q=%41%42&&page=", "keyboard=x&author=y", "token={{token}}"] {
            XCTAssertEqual(redaction.query(query), query)
        }
        XCTAssertEqual(redaction.query("a=1&api%5Fkey=s3&b&Token=t"), "a=1&api%5Fkey=[redacted]&b&Token=[redacted]")
        XCTAssertEqual(redaction.url("https://u:p@h/x?page=2&sig=abc#f"), "https://[redacted]@h/x?page=2&sig=[redacted]#f")
        XCTAssertEqual(redaction.url("https://h/x?page=2#sig=abc"), "https://h/x?page=2#sig=abc")
    }

    func testJSONMembersNamedLikeASecretAreHiddenInBodies() {
        let body = Data(#"{"user": "me", "password": "hunter2", "apiKey": "k-1", "nested": {"access_token": "t\"x"}, "page": 2}"#.utf8)
        XCTAssertEqual(String(decoding: Redaction(values: []).body(body), as: UTF8.self),
                       #"{"user": "me", "password": "[redacted]", "apiKey": "[redacted]", "nested": {"access_token": "[redacted]"}, "page": 2}"#)
        let template = Data(#"{"password": "{{password}}"}"#.utf8)
        XCTAssertEqual(Redaction(values: []).body(template), template, "a reference is no secret")
    }

    func testASecretFoundInOneExchangeIsKnownForTheOthers() {
        let values = Redaction.secretValues(headers: [HTTPHeader(name: "Authorization", value: "Bearer tok-9876"),
                                                      HTTPHeader(name: "Set-Cookie", value: "sid=abcSID; Path=/")],
                                            url: "http://x/?q=1", body: Data(#"{"password":"hunter2"}"#.utf8))
        XCTAssertEqual(Set(values), ["tok-9876", "abcSID", "hunter2"])
        let redaction = Redaction(values: values)
        XCTAssertEqual(redaction.url("http://x/cookies/set?sid=abcSID"), "http://x/cookies/set?sid=[redacted]")
        XCTAssertEqual(redaction.text(#"{"apiKey-ish": "tok-9876"}"#), #"{"apiKey-ish": "[redacted]"}"#)
    }

    /// A `{{reference}}` where a secret goes names a variable: it is not taken as a secret value, so a
    /// converted list keeps it wherever it appears (`access_token={{ api_key }}` was written `[redacted]`).
    func testReferencesAreNoSecretValues() {
        let values = Redaction.secretValues(headers: [HTTPHeader(name: "X-Api-Key", value: "{{key}}")],
                                            url: "http://x/?access_token={{ api_key }}&token=t0k3n-1",
                                            body: Data(#"{"password": "{{pw}}", "secret": "s3cr3t-2"}"#.utf8))
        XCTAssertEqual(Set(values), ["t0k3n-1", "s3cr3t-2"])
        XCTAssertEqual(Redaction(values: values).url("http://x/?access_token={{ api_key }}"), "http://x/?access_token={{ api_key }}")
    }
}
