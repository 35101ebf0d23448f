import FoundationEssentials
import ReqtopSync

/// The first bytes of a body while it arrives, for a live view (an inspector's Body tab): the
/// engine thread appends until the limit, any thread reads a copy. Off unless the session
/// configuration asks for it (`liveBodyPreviewBytes`).
final class BodyPreview: Sendable {
    let limit: Int
    private let bytes = Protected(Data())

    init(limit: Int) { self.limit = limit }

    /// Appends what fits under the limit; false once the preview is full (the caller stops calling).
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        bytes.withLock { data in
            let room = limit - data.count
            if room > 0 { data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.prefix(room))) }
            return data.count < limit
        }
    }

    var snapshot: Data { bytes.snapshot }
}
