import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The bodies of a transfer (engine thread): the response body held, spilled, streamed on or
/// failed past a limit; the request body read and rewound; the redirect taken.
extension TransferState {
    /// Decoded bodies are compared with what arrived only past this size (small bodies cannot hurt,
    /// and libcurl's count of what arrived may lag a read behind).
    static let bombCheckStart: Int64 = 64 << 20
    /// libcurl's receive buffer (`CURLOPT_BUFFERSIZE` in `Transfer`): the most one read adds.
    static let readSize: Int64 = 102_400

    /// What became of body bytes handed to the state.
    enum BodyWrite { case taken, paused, failed }

    func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> BodyWrite {
        EngineThread.check()
        if pendingRedirect != nil { return .taken } // the body of a redirect the engine follows
        // The decoded-size limit holds on every path: held, spilled, streamed on or discarded.
        if isCompressionBomb(adding: bytes.count) { return .failed }
        if let stream = delegate.stream { return pass(bytes, to: stream) }
        return store(bytes) ? .taken : .failed
    }

    /// Whether `count` more decoded bytes take the body past `maxDecodedRatio` × what arrived
    /// compressed (checked past `bombCheckStart`); if so, the failure says so.
    func isCompressionBomb(adding count: Int) -> Bool {
        let decoded = received + Int64(count)
        // At most one read (libcurl's buffer) more than counted has come off the wire so far.
        guard watchesDecodedRatio, decoded > Self.bombCheckStart, let ratio = delegate.maxDecodedRatio,
              Double(decoded) > ratio * Double(encodedReceived + Self.readSize) else { return false }
        failure = TransferError(code: .bodyTooLarge,
                                message: "the decoded body grew past \(Int(ratio))× its compressed size (\(decoded) bytes from \(encodedReceived)): "
                                    + "refused as a compression bomb (SessionConfiguration.maxDecodedRatio)")
        return true
    }

    /// A streaming task: the consumer takes the bytes (or pauses the transfer); the first ones are kept.
    func pass(_ bytes: UnsafeRawBufferPointer, to stream: TaskStream) -> BodyWrite {
        guard stream.consumer.consume(bytes) else { return .paused }
        received += Int64(bytes.count)
        if !previewFull, let preview = delegate.preview { previewFull = !preview.append(bytes) }
        let room = stream.options.keptBodyBytes - memoryBody.count
        if room > 0 { memoryBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room))) }
        return .taken
    }

    func store(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received += Int64(bytes.count)
        if !previewFull, let preview = delegate.preview { previewFull = !preview.append(bytes) }
        if let file {
            if file.isTemporary, file.size + Int64(bytes.count) > delegate.spillCap {
                failure = TransferError(code: .bodyTooLarge,
                                        message: "the body passed \(delegate.spillCap) bytes, the session's limit for bodies kept on disk (maxSpilledBodyBytes)")
                return false
            }
            return file.write(bytes)
        }
        do {
            if let destination = delegate.destination {
                let sink = try FileSink(url: destination, isTemporary: false)
                file = sink
                return sink.write(bytes)
            }
            if memoryBody.count + bytes.count > delegate.memoryCap {
                let sink = try FileSink.temporary()
                file = sink
                let spilled = memoryBody.withUnsafeBytes { sink.write($0) }
                memoryBody = Data()
                return spilled && sink.write(bytes)
            }
        } catch {
            failure = error
            return false
        }
        memoryBody.append(bytes.bindMemory(to: UInt8.self))
        return true
    }

    /// The connection moved no byte either way for `idle` seconds, `limit` or more: the transfer is aborted.
    func failIdle(idle: Double, limit: Double) {
        EngineThread.check()
        guard failure == nil else { return }
        failure = TransferError(code: .timedOut, message: "no byte arrived or left for \(Self.seconds(idle)) s "
                                    + "(the idle timeout is \(Self.seconds(limit)) s: SessionConfiguration.idleTimeout, --idle-timeout)")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(printf: "%.1f", value)
    }

    /// What the next read of the request body produced.
    enum BodyRead { case bytes(Int), pause, abort }

    /// Fills `buffer` with the next request body bytes (`.bytes(0)` at the end).
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        EngineThread.check()
        guard let source = current.bodySource else { return readOwnBody(into: buffer).map(BodyRead.bytes) ?? .abort }
        switch source.read(into: buffer) {
        case .bytes(let n):
            let room = (delegate.stream?.options.keptRequestBodyBytes ?? 0) - streamedBody.count
            if room > 0 { streamedBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<min(n, room)])) }
            streamedBodySize += Int64(n)
            return .bytes(n)
        case .end: return .bytes(0)
        case .wait: return .pause
        case .failed(let why):
            failure = TransferError(code: .sendFailed, message: why)
            return .abort
        case .invalid(let why):
            failure = TransferError(code: .protocolError, message: why)
            return .abort
        }
    }

    func readOwnBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        switch current.request.body {
        case .none:
            return 0
        case .data(let data):
            let n = min(buffer.count, data.count - uploadOffset)
            guard n > 0 else { return 0 }
            data.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + uploadOffset, byteCount: n)
            }
            uploadOffset += n
            return n
        case .file(let path):
            if uploadFD < 0 {
                uploadFD = open(path, O_RDONLY | O_CLOEXEC)
                guard uploadFD >= 0 else {
                    failure = TransferError(code: .fileIO, message: "cannot read \(path): \(String(cString: strerror(errno)))")
                    return nil
                }
            }
            let n = read(uploadFD, buffer.baseAddress, buffer.count)
            return n < 0 ? nil : n
        }
    }

    /// Rewinds the request body to `offset` so libcurl can send it again.
    func seekBody(to offset: Int64) -> Bool {
        if let source = current.bodySource {
            guard source.rewind(to: offset) else { return false }
            streamedBodySize = offset
            if Int64(streamedBody.count) > offset { streamedBody.removeSubrange(Int(offset)...) }
            return true
        }
        switch current.request.body {
        case .none: return offset == 0
        case .data(let data):
            guard offset >= 0, offset <= Int64(data.count) else { return false }
            uploadOffset = Int(offset)
            return true
        case .file:
            if uploadFD < 0 { return offset == 0 }
            return lseek(uploadFD, off_t(offset), SEEK_SET) == off_t(offset)
        }
    }

    /// After a transfer that ended on a redirect to follow: the next hop's request (the finished
    /// hop keeps `timings`), or nil when the transfer was not a redirect — or when the task's
    /// timeout, which covers every hop, has run out (then it fails with `timedOut`).
    func takeRedirect(timings: PhaseTimings) -> TransferRequest? {
        EngineThread.check()
        guard var next = pendingRedirect else { return nil }
        pendingRedirect = nil
        hops[hops.count - 1].timings = timings
        if let timeout = delegate.request.timeout {
            let spent = hops.reduce(0) { $0 + max(0, $1.timings?.total ?? 0) } / 1000
            guard spent < timeout else {
                failure = TransferError(code: .timedOut, message: "timed out after \(hops.count) redirects (\(timeout) s for the whole task)")
                return nil
            }
            next.timeout = timeout - spent
        }
        current = next
        uploadOffset = 0
        if uploadFD >= 0 {
            close(uploadFD)
            uploadFD = -1
        }
        reportedUpload = 0
        return current
    }
}
