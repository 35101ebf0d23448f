import Foundation
import ReqtopRequestLists
import XCTest

/// A small deterministic PRNG (SplitMix64), so a failing case can be reproduced from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutated valid files (truncated, random bytes inserted, lines swapped, dropped or duplicated)
/// load to a list or to an error — never a crash or a hang.
final class MutationTests: XCTestCase {
    private static let interesting: [UInt8] = Array("{}[]\"'\\$#<>@:=&?\n\r\t /.%-".utf8) + [0x00, 0xC3, 0xFF, 0xE2]

    private func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty:
                bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
            case 1:
                let at = Int.random(in: 0...bytes.count, using: &rng)
                let count = Int.random(in: 1...4, using: &rng)
                let inserted = (0..<count).map { _ in
                    Bool.random(using: &rng) ? Self.interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
                bytes.insert(contentsOf: inserted, at: at)
            case 2:
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                if lines.count > 1 {
                    lines.swapAt(Int.random(in: 0..<lines.count, using: &rng), Int.random(in: 0..<lines.count, using: &rng))
                }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 3:
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                if !lines.isEmpty {
                    let i = Int.random(in: 0..<lines.count, using: &rng)
                    if Bool.random(using: &rng) { lines.remove(at: i) } else { lines.insert(lines[i], at: i) }
                }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            default:
                if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng)) }
            }
        }
        return bytes
    }

    func testMutatedFilesLoadOrFailWithALocatedError() throws {
        let fixtures: [(String, RequestListFormat)] = [
            ("http/separators-and-names.http", .http), ("http/file-variables.http", .http), ("http/chaining.http", .http),
            ("http/headers-and-body.http", .http), ("http/file-body.http", .http), ("env/api.http", .http),
            ("har/chrome.har", .har), ("har/mitmproxy.har", .har),
            ("curl/chrome-copy-as-curl.curl", .curl), ("curl/several-commands.sh", .curl),
            // Shell loops, arrays, ${VAR:-default}, curl in $(…), globbing and curl_url normalization; lenient HAR values.
            ("Wild/scripts/apisix__nacos-service-healthcheck.sh", .curl), ("Wild/scripts/examples__verify.sh", .curl),
            ("Wild/scripts/semanticMediator__cache-missing.sh", .curl), ("Wild/curl/trace4cats__DynamicSampling.curl", .curl),
            ("Wild/har/pollyjs__recording.har", .har), ("Wild/har/spotify-music-player__recording.har", .har),
            // Postman and Insomnia exports (read through the JSON route), scripted .http files.
            ("Wild/formats/insomnia__complex-v2_0-input.json", .har), ("Wild/formats/insomnia__postman-export-oauth2-v2_1-input.json", .har),
            ("Wild/formats/insomnia__insomnia_v4.json", .har),
            ("Wild/http/scripted/httpyac/intellij.http", .http), ("Wild/http/scripted/kulala/requests/advanced_D.http", .http),
        ]
        let casesPerFixture = 300
        var rng = SplitMix64(seed: 0x5EED_4EC7_0000_0004)
        var loaded = 0
        var failed = 0
        let started = Date()
        for (fixture, format) in fixtures {
            let original = Array(try Fixtures.text(fixture).utf8)
            let path = Fixtures.path(fixture)
            for _ in 0..<casesPerFixture {
                let text = String(decoding: mutate(original, using: &rng), as: UTF8.self)
                do {
                    let list = try RequestListLoader.load(text: text, path: path, format: format)
                    let resolver = RequestResolver(list: list, variables: VariableContext(environment: ["host": "h.example", "token": "t"]))
                    do {
                        try resolver.validate()
                        for index in list.specs.indices where resolver.dependencies(of: index).isEmpty {
                            _ = try resolver.resolve(index)
                        }
                    } catch {
                        XCTAssertGreaterThanOrEqual(error.line, 1)
                    }
                    var files = BodyFiles(prefix: "fuzz")
                    _ = HTTPFileWriter.text(for: list, bodyFiles: &files, redaction: SecretPolicy().redaction)
                    for spec in list.specs { _ = curlCommand(spec) }
                    loaded += 1
                } catch {
                    XCTAssertEqual(error.file, path)
                    XCTAssertGreaterThanOrEqual(error.line, 1)
                    XCTAssertGreaterThanOrEqual(error.column, 1)
                    XCTAssertFalse(error.message.isEmpty)
                    XCTAssertFalse(error.description.isEmpty)
                    failed += 1
                }
            }
        }
        for fixture in ["env/http-client.env.json", "env/http-client.private.env.json"] {
            let original = Array(try Fixtures.text(fixture).utf8)
            for _ in 0..<casesPerFixture {
                let text = String(decoding: mutate(original, using: &rng), as: UTF8.self)
                do {
                    _ = try Environments.parse(text: text, path: fixture)
                    loaded += 1
                } catch {
                    XCTAssertEqual(error.file, fixture)
                    XCTAssertFalse(error.description.isEmpty)
                    failed += 1
                }
            }
        }
        XCTAssertEqual(loaded + failed, (fixtures.count + 2) * casesPerFixture)
        XCTAssertGreaterThan(loaded, 0)
        XCTAssertGreaterThan(failed, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "mutation cases must not hang")
    }
}
