import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What changes while one task runs: the request of the current hop, the response head being
/// parsed, the body (in memory, spilled, or streamed to the download file), the upload position,
/// redirect hops, progress already reported. Created on the engine thread when the task starts,
/// carried by each of its transfers (one per redirect hop), touched only there — debug builds check
/// it with `EngineThread.check()`.
final class TransferState {
    /// What the task was created with.
    let delegate: TaskDelegate
    /// The request being sent: the task's, then each redirect hop's.
    private var current: TransferRequest
    /// The next hop's request, once `RedirectPolicy` decided to follow the response being received.
    private var pendingRedirect: TransferRequest?
    private var pendingHead: HTTPResponseHead?
    private var sentHeads: [RequestHead] = []
    private var head: HTTPResponseHead?
    /// The final response's Content-Length when it gives the decoded size (no Content-Encoding);
    /// read once when the head arrives, not on every progress callback.
    private var declaredLength: Int64?
    private var hops: [RedirectHop] = []
    private var memoryBody = Data()
    private var file: FileSink?
    private var received: Int64 = 0
    /// Body bytes as they came off the wire before content decoding, as libcurl counted them when
    /// the current write began (it counts a read after writing what it decoded).
    var encodedReceived: Int64 = 0
    /// The response is content-coded and decoded sizes are limited: `encodedReceived` is kept up to date.
    private(set) var watchesDecodedRatio = false
    private var reportedDownload: Int64 = 0
    private var reportedUpload: Int64 = 0
    private var uploadOffset = 0
    private var uploadFD: Int32 = -1
    private var failure: TransferError?
    /// The live preview has all it keeps (or there is none to fill).
    private var previewFull = false
    /// The last of `resumed` / `suspended` posted for the task was `resumed`: posted when a transfer
    /// enters the multi handle (not while it waits for a slot), once for all its redirect hops.
    var announcedRunning = false

    init(delegate: TaskDelegate) {
        EngineThread.check()
        self.delegate = delegate
        self.current = delegate.request
    }

    deinit {
        if uploadFD >= 0 { close(uploadFD) }
    }

    // MARK: Headers

    /// One raw header line of any response of the transfer (including redirects and 1xx).
    func didReceiveHeaderLine(_ bytes: UnsafeRawBufferPointer, emit: (TaskEvent.Kind) -> Void) -> Bool {
        EngineThread.check()
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let lineBytes = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        let isStatusLine = lineBytes.starts(with: "HTTP/".utf8)
        if pendingHead != nil, !isStatusLine, let colon = lineBytes.firstIndex(of: UInt8(ascii: ":")) {
            // A header field, cut on the bytes (no string for the whole line). Optional whitespace around a
            // value is SP or HTAB (RFC 9110 §5.6.3); Foundation's bridged trimming was a third of the engine.
            func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            var start = colon + 1, stop = end
            while start < stop, isBlank(lineBytes[start]) { start += 1 }
            while stop > start, isBlank(lineBytes[stop - 1]) { stop -= 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: lineBytes[..<colon]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: lineBytes[start..<stop]), as: UTF8.self)
            pendingHead?.headers.append(HTTPHeader(name: name, value: value))
            pendingHead?.size += bytes.count
            return true
        }
        if isStatusLine {
            pendingHead = Self.statusLine(lineBytes, url: current.url, size: bytes.count)
        } else if end == 0 {
            guard var complete = pendingHead else { return true }
            pendingHead = nil
            complete.size += bytes.count
            if let problem = Self.framingProblem(complete) {
                // libcurl would pick one length and read on: the body could be cut or run into the next response.
                failure = TransferError(code: .badServerResponse, message: problem)
                head = complete
                emit(.response(complete))
                return false
            }
            headDidEnd(complete, emit: emit)
        }
        return true
    }

    /// A response head begun by its status line, `HTTP/1.1 200 OK`: version, status (0 when not a
    /// number) and reason phrase, words separated by runs of spaces; the reason keeps its inner spaces.
    static func statusLine(_ line: UnsafeRawBufferPointer, url: HTTPURL, size: Int) -> HTTPResponseHead {
        var index = 0
        func word() -> Range<Int> {
            while index < line.count, line[index] == 0x20 { index += 1 }
            let start = index
            while index < line.count, line[index] != 0x20 { index += 1 }
            return start..<index
        }
        let version = word(), status = word()
        while index < line.count, line[index] == 0x20 { index += 1 }
        func string(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self) }
        var code = 0
        if (1...9).contains(status.count), line[status].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            code = line[status].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        var head = HTTPResponseHead(url: url, httpVersion: string(version.lowerBound + min(version.count, "HTTP/".count)..<version.upperBound),
                                    status: code, reason: string(index..<line.count), headers: [], size: size)
        head.headers.reserveCapacity(12)
        return head
    }

    /// The request head of the current hop exactly as libcurl wrote it to the connection.
    func didSendHead(_ bytes: UnsafeRawBufferPointer, emit: (TaskEvent.Kind) -> Void) {
        EngineThread.check()
        guard let head = RequestHead(wireBytes: bytes, url: current.url, hop: hops.count) else {
            return
        }
        sentHeads.append(head)
        emit(.requestSent(head))
    }

    /// Why the body of `head` has no trustworthy length (RFC 9112 §6.3): Content-Length values that
    /// differ, or one that is not a number that fits 63 bits.
    static func framingProblem(_ head: HTTPResponseHead) -> String? {
        let values = head.headers.values(for: "Content-Length")
        // The usual case, one value of digits, without splitting and trimming (Foundation's trimming was 2 % of the engine).
        if values.count == 1, let only = values.first, !only.isEmpty, only.utf8.count <= 18,
           only.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return nil
        }
        let lengths = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lengths.first else { return nil }
        if lengths.contains(where: { $0 != first }) {
            return "the response has different Content-Length values (\(lengths.joined(separator: ", "))): its body length is unknown"
        }
        if first.isEmpty || !first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || Int64(first) == nil {
            return "the response's Content-Length is not a usable number (\(first.prefix(40))): its body length is unknown"
        }
        return nil
    }

    private func headDidEnd(_ complete: HTTPResponseHead, emit: (TaskEvent.Kind) -> Void) {
        if (100..<200).contains(complete.status) { return }
        switch RedirectPolicy.decide(after: complete, to: current, hopsSoFar: hops.count) {
        case .follow(let next):
            let hop = RedirectHop(status: complete.status, from: current.url, to: next.url, response: complete)
            hops.append(hop)
            pendingRedirect = next
            emit(.redirected(hop))
            return
        case .refuse(let error):
            failure = error
        case .deliver:
            break
        }
        head = complete
        let isEncoded = complete.headers.value(for: "Content-Encoding") != nil
        watchesDecodedRatio = delegate.maxDecodedRatio != nil && isEncoded
        if !isEncoded { declaredLength = complete.headers.value(for: "Content-Length").flatMap(Int64.init) }
        emit(.response(complete))
        if failure == nil { delegate.stream?.consumer.didReceiveResponse(complete) }
    }

    // MARK: Body

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
    private func isCompressionBomb(adding count: Int) -> Bool {
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
    private func pass(_ bytes: UnsafeRawBufferPointer, to stream: TaskStream) -> BodyWrite {
        guard stream.consumer.consume(bytes) else { return .paused }
        received += Int64(bytes.count)
        if !previewFull, let preview = delegate.preview { previewFull = !preview.append(bytes) }
        let room = stream.options.keptBodyBytes - memoryBody.count
        if room > 0 { memoryBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room))) }
        return .taken
    }

    private func store(_ bytes: UnsafeRawBufferPointer) -> Bool {
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

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// What the next read of the request body produced.
    enum BodyRead { case bytes(Int), pause, abort }

    /// Fills `buffer` with the next request body bytes (`.bytes(0)` at the end).
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        EngineThread.check()
        guard let source = current.bodySource else { return readOwnBody(into: buffer).map(BodyRead.bytes) ?? .abort }
        switch source.read(into: buffer) {
        case .bytes(let n): return .bytes(n)
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

    private func readOwnBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
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
        if let source = current.bodySource { return source.rewind(to: offset) }
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

    // MARK: Progress

    /// Decoded bodies are compared with what arrived only past this size (small bodies cannot hurt,
    /// and libcurl's count of what arrived may lag a read behind).
    static let bombCheckStart: Int64 = 64 << 20
    /// libcurl's receive buffer (`CURLOPT_BUFFERSIZE` in `Transfer`): the most one read adds.
    static let readSize: Int64 = 102_400

    /// Whether `progress` would report anything: libcurl calls back on every pass of every transfer,
    /// mostly with nothing new.
    func hasProgress(uploaded: Int64) -> Bool {
        (uploaded > reportedUpload && current.bodySize != nil) || (received > reportedDownload && head != nil)
    }

    func progress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64,
                  emit: (TaskEvent.Kind) -> Void) {

        if uploaded > reportedUpload, let size = current.bodySize {
            reportedUpload = uploaded
            report(TransferProgress(direction: .upload, completed: uploaded, total: size), emit: emit)
        }
        if received > reportedDownload, head != nil {
            reportedDownload = received
            report(TransferProgress(direction: .download, completed: received, total: expectedLength(downloadTotal)), emit: emit)
        }
    }

    private func expectedLength(_ curlTotal: Int64) -> Int64 {
        declaredLength ?? (curlTotal > 0 ? curlTotal : -1)
    }

    private func report(_ progress: TransferProgress, emit: (TaskEvent.Kind) -> Void) {
        emit(.progress(progress))
        let handler = progress.direction == .upload ? delegate.uploadProgress : delegate.downloadProgress
        if let handler { delegate.completionQueue.async { handler(progress) } }
    }

    // MARK: Completion

    /// Closes files and gathers the result. `transportError` is nil when libcurl reported success.
    func finish(transportError: TransferError?, timings: PhaseTimings?, emit: (TaskEvent.Kind) -> Void) -> FinishedTransfer {
        EngineThread.check()
        if received > reportedDownload, head != nil {
            reportedDownload = received
            report(TransferProgress(direction: .download, completed: received, total: expectedLength(-1)), emit: emit)
        }
        if file == nil, let destination = delegate.destination, transportError == nil {
            file = try? FileSink(url: destination, isTemporary: false) // an empty body still makes the file
        }
        var body: ResponseBody? = if let file { .file(file.finish()) } else if delegate.destination == nil { .data(memoryBody) } else { nil }
        if failure?.code == .bodyTooLarge, case .file(let spilled)? = body, spilled.isTemporary {
            body = nil // what passed the limit is not kept: the temp file goes with the last reference
        }
        file = nil
        memoryBody = Data()
        var error = failure ?? transportError.map(refined)
        if error == nil {
            if let head { error = delegate.validation.validate(head) }
            else { error = TransferError(code: .badServerResponse, message: "the server sent no HTTP response") }
        }
        // The task's timings cover the whole chain: the last exchange's phases plus the redirects before it.
        let redirectTime = hops.reduce(0) { $0 + max(0, $1.timings?.total ?? 0) }
        return FinishedTransfer(head: head, body: body, bytes: received, redirects: hops, sentHeads: sentHeads,
                                timings: hops.isEmpty ? timings : timings?.afterRedirects(taking: redirectTime), error: error)
    }

    /// libcurl's code made specific where what happened on the wire tells more: a peer that answered
    /// with something other than HTTP is not a bad URL, a response head too large is not a reset or
    /// an out-of-memory condition.
    private func refined(_ error: TransferError) -> TransferError {
        var error = error
        guard head == nil else { return error }
        if error.code == .badURL, !sentHeads.isEmpty {
            error.code = .badServerResponse
            error.message = "the server did not answer in HTTP (\(error.message))"
        } else if error.message.hasPrefix("Too large response headers") || error.message == "Out of memory" && !sentHeads.isEmpty {
            error.code = .badServerResponse
            error.message = "the response head is too large (a line over 100 KB, or over 300 KB in all)"
        }
        return error
    }

    /// The result of a task that was cancelled before it finished: what had arrived is kept (a
    /// partial body, a spilled one stays in its file), with the timings so far when libcurl had them.
    func finishCancelled(timings: PhaseTimings? = nil) -> FinishedTransfer {
        let body: ResponseBody? = if let file { .file(file.finish()) } else if received > 0 { .data(memoryBody) } else { nil }
        file = nil
        memoryBody = Data()
        return FinishedTransfer(head: head, body: body, bytes: received, redirects: hops, sentHeads: sentHeads, timings: timings,
                                error: TransferError(code: .cancelled, message: "cancelled"))
    }
}
