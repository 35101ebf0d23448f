import Foundation
import XCTest

/// The modules stand in layers (docs/architecture.md): a module imports only modules of layers
/// below its own, so the networking core never learns of request lists, a UI, or the app.
final class LayeringTests: XCTestCase {
    /// Each module of Sources/ and its layer, lowest first. A new module gets a line here.
    static let layers: [String: Int] = [
        // C shims over Debian's libraries.
        "CCurl": 0, "CJavaScriptCore": 0, "CMemory": 0, "CNcursesw": 0, "CProcess": 0, "CTLS": 0, "CHTTP2": 0, "CTextWidth": 0, "CZlib": 0,
        // The lock type; HTTP values; text a terminal can show safely.
        "ReqtopSync": 1,
        "ReqtopHTTPModel": 2, "ReqtopTerminalText": 2,
        // Layer 1 (the networking core), layer 2 (request lists), the terminal kit, the test server.
        "ReqtopNetworking": 3, "ReqtopRequestLists": 3, "ReqtopScripts": 3, "ReqtopTerminalUI": 3, "ReqtopTestServer": 3,
        // What is built on the core: the proxy, a session without UI, ncurses, test helpers.
        "ReqtopProxy": 4, "ReqtopTasks": 4, "ReqtopNcurses": 4, "ReqtopNetworkingTesting": 4, "ReqtopNetworkingFoundation": 4,
        // Layer 3: the inspector's screens.
        "ReqtopInspector": 5,
        // The programs.
        "reqtop": 6, "reqtop-bench": 6, "reqtop-kit-demo": 6, "reqtop-fuzz": 6,
    ]

    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// The project modules each module's Swift files import.
    static func imports() throws -> [String: Set<String>] {
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        var found: [String: Set<String>] = [:]
        for module in modules {
            found[module] = []
            let folder = sources.appendingPathComponent(module)
            for case let file as String in FileManager.default.enumerator(atPath: folder.path) ?? NSEnumerator() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && $0 != "public" && $0 != "package" }
                    guard words.count >= 2, words[0] == "import" else { continue }
                    let imported = String(words[1])
                    if modules.contains(imported), imported != module { found[module, default: []].insert(imported) }
                }
            }
        }
        return found
    }

    func testEveryModuleHasALayer() throws {
        let modules = Set(try Self.imports().keys)
        XCTAssertEqual(modules.subtracting(Self.layers.keys), [], "add the new modules to LayeringTests.layers (and docs/architecture.md)")
        XCTAssertEqual(Set(Self.layers.keys).subtracting(modules), [], "modules that are gone")
    }

    func testNoModuleImportsItsOwnLayerOrAHigherOne() throws {
        var wrong: [String] = []
        for (module, imported) in try Self.imports() {
            guard let layer = Self.layers[module] else { continue }
            for other in imported.sorted() where (Self.layers[other] ?? .max) >= layer {
                wrong.append("\(module) (layer \(layer)) imports \(other) (layer \(Self.layers[other].map(String.init) ?? "?"))")
            }
        }
        XCTAssertEqual(wrong.sorted(), [], wrong.sorted().joined(separator: "\n"))
    }

    /// The modules the executable links are built on FoundationEssentials: one `import Foundation`
    /// would link Foundation's CoreFoundation and ICU back in (and its start-up: issue 30). Only
    /// these may import it — none of them is part of `reqtop`.
    static let foundationUsers: Set<String> = ["ReqtopNetworkingFoundation", "ReqtopNetworkingTesting", "reqtop-bench", "reqtop-fuzz"]

    func testOnlyModulesOutsideTheExecutableImportFoundation() throws {
        var found: [String] = []
        var seenEssentials = false
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path) where !module.hasPrefix(".") {
            let folder = Self.sources.appendingPathComponent(module)
            for case let file as String in FileManager.default.enumerator(atPath: folder.path) ?? NSEnumerator() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                    guard words.count >= 2, words[0] == "import" else { continue }
                    if words[1] == "FoundationEssentials" { seenEssentials = true }
                    if ["Foundation", "FoundationNetworking", "FoundationXML"].contains(words[1]), !Self.foundationUsers.contains(module) {
                        found.append("\(module)/\(file): \(line)")
                    }
                }
            }
        }
        XCTAssertTrue(seenEssentials, "the check reads the import lines")
        XCTAssertEqual(found, [], "import FoundationEssentials instead (ReqtopHTTPModel's Text/ and System/ have the rest)")
    }

    /// The check sees what it should: the networking core's imports are found (so an empty result
    /// above is not a parser that reads nothing).
    func testTheImportsAreRead() throws {
        let imports = try Self.imports()
        XCTAssertEqual(imports["ReqtopNetworking"], ["CCurl", "ReqtopHTTPModel", "ReqtopSync"])
        XCTAssertTrue(imports["reqtop"]?.contains("ReqtopInspector") ?? false)
    }
}
