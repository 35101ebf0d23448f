import Foundation
@testable import ReqtopNetworking
import XCTest

/// Spill folders (bodies, HAR entries) live in a private per-user folder; those left by a process
/// killed with -9 are removed by a later one — in the per-user folder and, for the layout of earlier
/// versions, in the temp directory itself.
final class SpillFolderTests: XCTestCase {
    private var temporary: String { FileManager.default.temporaryDirectory.path }

    /// The pid of a process that has exited.
    private func deadPID() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    func testFoldersOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let dead = try deadPID()
        _ = SpillFolders.url(for: .bodies) // makes the per-user folder
        for (directory, prefix) in [(SpillFolders.userFolderPath, ""), (temporary, "reqtop-")] {
            let path = { (name: String) in directory + "/" + prefix + name }
            let deadOnes = [path("\(dead)-bodies"), path("\(dead)-har-entries")]
            let kept = [path("1-bodies"), path("\(dead)-notes")] // pid 1 always runs; another name is not ours to delete
            for folder in deadOnes + kept {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/body-1"))
            }
            defer { kept.forEach { try? FileManager.default.removeItem(atPath: $0) } }
            SpillFolders.removeFoldersOfDeadProcesses(in: directory, prefix: prefix)
            for folder in deadOnes { XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "\(folder): its process is gone") }
            for folder in kept { XCTAssertTrue(FileManager.default.fileExists(atPath: folder), "\(folder) is kept") }
        }
    }

    func testAProcessFolderIsPrivateAndInTheUserFolder() throws {
        let folder = try SpillFolders.make(.harEntries)
        defer { rmdir(folder.path) } // only if no HAR recorder of this process has a file there
        XCTAssertEqual(folder.path, SpillFolders.userFolderPath + "/\(getpid())-har-entries")
        for path in [SpillFolders.userFolderPath, folder.path] {
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o700, path)
        }
    }

    func testOnlyARealDirectoryOfThisUserIsUsedAndMadePrivate() throws {
        let base = temporary + "/reqtop-spill-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: base) }
        XCTAssertTrue(SpillFolders.isPrivateFolderOfThisUser(base + "/open"))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: base + "/open")[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o700, "group and others lose their access")
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/open")
        XCTAssertFalse(SpillFolders.isPrivateFolderOfThisUser(base + "/link"), "a symlink could point anywhere")
        _ = FileManager.default.createFile(atPath: base + "/file", contents: Data())
        XCTAssertFalse(SpillFolders.isPrivateFolderOfThisUser(base + "/file"))
        XCTAssertFalse(SpillFolders.isPrivateFolderOfThisUser(base + "/missing"))
    }

    func testOnlySpillFolderNamesGiveAnOwner() {
        func owner(_ name: String, prefix: String) -> pid_t? {
            Array(name.utf8).withUnsafeBytes { SpillFolders.ownerPID(ofFolderNamed: $0, prefix: prefix)?.pid }
        }
        XCTAssertEqual(owner("reqtop-4242-bodies", prefix: "reqtop-"), 4242)
        XCTAssertEqual(owner("reqtop-7-har-entries", prefix: "reqtop-"), 7)
        XCTAssertEqual(owner("4242-bodies", prefix: ""), 4242)
        XCTAssertEqual(owner("7-har-entries", prefix: ""), 7)
        for name in ["reqtop--bodies", "reqtop-bodies", "reqtop-12x-bodies", "reqtop-12-bodies2", "Reqtop-12-bodies",
                     "reqtop-1234567890-bodies", "reqtop-12-notes", "reqtop--5-bodies", "TemporaryDirectory.ab12", ""] {
            XCTAssertNil(owner(name, prefix: "reqtop-"), name)
        }
        XCTAssertNil(owner("reqtop-12-bodies", prefix: ""), "the per-user folder's names have no prefix")
        XCTAssertNil(owner("-bodies", prefix: ""))
    }
}
