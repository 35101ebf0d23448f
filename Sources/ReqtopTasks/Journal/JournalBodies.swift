import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// The bodies of a journaled session too large for its lines: each kept as a file in the
/// session's `<id>.bodies/` folder, beside the journal and private like it, and deleted with it
/// when the session is pruned. A body the engine spilled to a temporary file is hard-linked (no
/// copy; the link outlives the temporary name), or copied when the two folders are on different
/// file systems; a body in memory is written out. Used on the journal's queue only.
final class JournalBodies: @unchecked Sendable {
    private let folder: URL
    private let limit: Int
    /// The folder exists (made on the first large body).
    private var made = false

    init(folder: URL, limit: Int) {
        self.folder = folder
        self.limit = limit
    }

    /// `event` with each body over the limit moved to a file of the session's (a download's own
    /// file and smaller bodies stay as they are); a body that cannot be kept stays, to be named
    /// as omitted in its line.
    func keepingLargeBodies(of event: TaskEvent) -> TaskEvent {
        var event = event
        let task = event.task.rawValue
        switch event.kind {
        case .created(var description):
            guard case .data(let data) = description.request.body, data.count > limit,
                  case .file(let file)? = keep(.data(data), as: "\(task)-request") else { break }
            description.request.body = .file(path: file.url.path)
            event.kind = .created(description)
        case .completed(var completion):
            guard let kept = keep(completion.body, as: "\(task)-response") else { break }
            completion.body = kept
            event.kind = .completed(completion)
        case .failed(var failure):
            guard let kept = keep(failure.partialBody, as: "\(task)-response") else { break }
            failure.partialBody = kept
            event.kind = .failed(failure)
        case .cancelled(var partial?):
            guard let kept = keep(partial.partialBody, as: "\(task)-response") else { break }
            partial.partialBody = kept
            event.kind = .cancelled(partial)
        default:
            break
        }
        return event
    }

    /// The body as a file of the session's, or nil when it stays as it is (small, a download's
    /// own file, or it could not be written: the disk is full).
    private func keep(_ body: ResponseBody?, as name: String) -> ResponseBody? {
        guard let body, body.count > Int64(limit) else { return nil }
        if case .file(let file) = body, !file.isTemporary { return nil }
        do {
            if !made {
                try PrivateFolder.ensure(folder.path, holds: "the session's large bodies")
                made = true
            }
            let target = folder.appendingPathComponent(name)
            switch body {
            case .data(let data):
                try write(data, to: target)
            case .file(let file):
                if link(file.url.path, target.path) != 0 {
                    try write(Data(contentsOf: file.url, options: .alwaysMapped), to: target)
                }
            }
            return .file(BodyFile(existing: target))
        } catch {
            return nil
        }
    }

    private func write(_ data: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: ["NSFilePath": url.path]) }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        guard ok else { throw CocoaError(.fileWriteOutOfSpace, userInfo: ["NSFilePath": url.path]) }
    }
}
