import Foundation
import ReqtopNetworking
import ReqtopSync
import XCTest

/// Folders reqtop keeps secrets in are private whoever made them: tightened when they are the
/// user's, refused when they are someone else's or a symbolic link (`PrivateFolder`).
final class PrivateFolderTests: XCTestCase {
    private var base = ""
    private let said = Protected<[String]>([])

    override func setUpWithError() throws {
        base = NSTemporaryDirectory() + "reqtop-private-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let said = self.said
        PrivateFolder.notices.withLock { $0 = { message in said.withLock { $0.append(message) } } }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: base)
        PrivateFolder.notices.withLock { $0 = { FileHandle.standardError.write(Data(("reqtop: " + $0 + "\n").utf8)) } }
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    func testAMissingFolderIsMadePrivate() throws {
        let path = base + "/a/b/reqtop"
        try PrivateFolder.ensure(path, holds: "secrets")
        XCTAssertEqual(try mode(path), 0o700)
        XCTAssertEqual(said.snapshot, [], "nothing to say about a folder reqtop made")
    }

    func testALooseFolderOfTheUsersIsTightenedAndSaidOnce() throws {
        for loose in [0o755, 0o777, 0o750, 0o701] {
            let path = base + "/loose-\(String(loose, radix: 8))"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: loose])
            XCTAssertEqual(try mode(path), loose)
            try PrivateFolder.ensure(path, holds: "session journals")
            try PrivateFolder.ensure(path, holds: "session journals")
            XCTAssertEqual(try mode(path), 0o700)
            let about = said.snapshot.filter { $0.contains(path) }
            XCTAssertEqual(about.count, 1, "said once: \(said.snapshot)")
            XCTAssertTrue(about[0].contains("made \(path) private (mode \(String(loose, radix: 8)) → 700): it holds session journals"), about[0])
        }
    }

    /// A shared sticky folder (what /tmp is) is refused, never closed: other users' programs need it.
    func testASharedStickyFolderIsRefusedNotChanged() throws {
        let shared = base + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        XCTAssertThrowsError(try PrivateFolder.ensure(shared, holds: "secrets")) { XCTAssertTrue("\($0)".contains("shared folder"), "\($0)") }
        XCTAssertEqual(try mode(shared), 0o1777)
    }

    /// A socket path the program chose, in a folder of its own (here a shared one), leaves that folder as it is.
    func testASocketInAFolderTheProgramChoseLeavesTheFolderAlone() throws {
        let manager = SessionManager()
        defer { manager.invalidate() }
        let shared = base + "/apps"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        let publisher = try manager.publishEvents(at: shared + "/app.sock")
        publisher.stop()
        XCTAssertEqual(try mode(shared), 0o1777)
    }

    func testASymbolicLinkIsRefused() throws {
        let target = base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: target)
        XCTAssertThrowsError(try PrivateFolder.ensure(base + "/link", holds: "the CA key")) {
            XCTAssertTrue("\($0)".contains("is a symbolic link"), "\($0)")
        }
        try Data("key".utf8).write(to: URL(fileURLWithPath: target + "/key.pem"))
        try FileManager.default.createSymbolicLink(atPath: target + "/linked-key.pem", withDestinationPath: target + "/key.pem")
        XCTAssertThrowsError(try PrivateFolder.ensureFile(target + "/linked-key.pem", holds: "the CA key"))
    }

    func testAFolderOfAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give a folder to another user") }
        let path = base + "/theirs"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        XCTAssertThrowsError(try PrivateFolder.ensure(path, holds: "the attach sockets")) {
            XCTAssertTrue("\($0)".contains("belongs to user 65534, not to you"), "\($0)")
        }
    }

    func testALooseKeyFileIsTightenedNotReplaced() throws {
        let key = base + "/key.pem"
        try Data("the key".utf8).write(to: URL(fileURLWithPath: key))
        XCTAssertEqual(chmod(key, 0o644), 0)
        try PrivateFolder.ensureFile(key, holds: "the interception CA's private key")
        XCTAssertEqual(try mode(key), 0o600)
        XCTAssertEqual(try String(contentsOfFile: key, encoding: .utf8), "the key")
        XCTAssertEqual(said.snapshot.filter { $0.contains(key) }.count, 1)
    }

    /// The attach sockets' own folder (`$XDG_RUNTIME_DIR/reqtop`): a loose one of ours is tightened,
    /// a symlink there is refused.
    func testTheAttachSocketFolderIsPrivate() throws {
        let saved = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
        defer { if let saved { setenv("XDG_RUNTIME_DIR", saved, 1) } else { unsetenv("XDG_RUNTIME_DIR") } }
        let manager = SessionManager()
        defer { manager.invalidate() }
        setenv("XDG_RUNTIME_DIR", base, 1)
        let loose = base + "/reqtop"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let publisher = try manager.publishEvents(at: EventPublisher.defaultPath(for: "app"))
        defer { publisher.stop() }
        XCTAssertEqual(try mode(loose), 0o700)
        try FileManager.default.createDirectory(atPath: base + "/linked", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: base + "/linked/reqtop", withDestinationPath: loose)
        setenv("XDG_RUNTIME_DIR", base + "/linked", 1)
        XCTAssertThrowsError(try manager.publishEvents(at: EventPublisher.defaultPath(for: "other")))
    }
}
