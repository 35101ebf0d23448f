import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// `--keep-bodies DIR`: at the end of a session, every response body it still holds goes to a
/// folder that outlives the process — a spilled body's file is moved there (no copy), a body in
/// memory is written — with `index.tsv` saying which file is which task. Download tasks' files
/// stay where the request put them and are only listed.
package enum KeptBodies {
    package struct Summary: Sendable, Equatable {
        /// Bodies written or moved into the folder.
        package var kept = 0
        package var bytes: Int64 = 0
        /// Bodies the session had already released (the memory budget), listed as such.
        package var released = 0
    }

    /// Writes the bodies of `records` into `folder` (created if needed); an existing file of the same name is replaced.
    package static func write(_ records: some Sequence<TaskRecord>, to folder: String) throws -> Summary {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var summary = Summary()
        var index = "task\tmethod\turl\tstatus\tstate\tfile\n"
        for record in records {
            let file: String
            if let body = record.body {
                if case .file(let stored) = body, !stored.isTemporary {
                    file = stored.url.path // a download: it already lives where it was asked to
                } else {
                    file = "\(record.id.rawValue)-\(BodyFileName.suggested(for: record))"
                    let target = URL(fileURLWithPath: folder).appendingPathComponent(file)
                    if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
                    switch body {
                    case .data(let data): try data.write(to: target)
                    case .file(let spilled): try manager.moveItem(at: spilled.url, to: target)
                    }
                    summary.kept += 1
                    summary.bytes += body.count
                }
            } else if record.bodyReleased {
                file = "(released during the session to keep memory bounded)"
                summary.released += 1
            } else {
                continue
            }
            let status = record.response.map { String($0.status) } ?? "-"
            let fields = [String(record.id.rawValue), record.method, record.url.absoluteString, status, record.state.rawValue, file]
            index += fields.map { $0.replacingEvery("\t", with: " ").replacingEvery("\n", with: " ") }
                .joined(separator: "\t") + "\n"
        }
        try Data(index.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("index.tsv"))
        return summary
    }
}
