import FoundationEssentials
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
    var current: TransferRequest
    /// The next hop's request, once `RedirectPolicy` decided to follow the response being received.
    var pendingRedirect: TransferRequest?
    /// The response head being read: begun by its status line, its fields collected apart
    /// (`pendingFields`) so adding one never copies the head, put together at its blank line.
    private var pendingHead: HTTPResponseHead?
    private var pendingFields: [HTTPHeader] = []
    private var pendingFieldBytes = 0
    /// `pendingHead != nil`, kept apart: comparing the optional head with nil copied it for every line.
    private var readingHead = false
    var sentHeads: [RequestHead] = []
    var head: HTTPResponseHead?
    /// The final response's Content-Length when it gives the decoded size (no Content-Encoding);
    /// read once when the head arrives, not on every progress callback.
    var declaredLength: Int64?
    var hops: [RedirectHop] = []
    var memoryBody = Data()
    var file: FileSink?
    var received: Int64 = 0
    /// Body bytes as they came off the wire before content decoding, as libcurl counted them when
    /// the current write began (it counts a read after writing what it decoded).
    var encodedReceived: Int64 = 0
    /// The response is content-coded and decoded sizes are limited: `encodedReceived` is kept up to date.
    private(set) var watchesDecodedRatio = false
    var reportedDownload: Int64 = 0
    var reportedUpload: Int64 = 0
    var uploadOffset = 0
    var uploadFD: Int32 = -1
    /// The body read from a `RequestBodySource` so far: its first bytes and its size.
    var streamedBody = Data()
    var streamedBodySize: Int64 = 0
    var failure: TransferError?
    /// The connection of the last exchange (set by the engine as each transfer ends).
    var connection: TransferConnection?
    /// Splits the delivered response's body into `message` events when it is a stream of them.
    var messages: StreamMessageParser?
    /// The live preview has all it keeps (or there is none to fill).
    var previewFull = false
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

    /// A field line (`Name: value`) of the response head being read (any response of the transfer,
    /// redirects and 1xx included; CRLF included), added to it; false for any other line
    /// (status line, the blank line that ends the head), which `didReceiveHeadBoundary` takes.
    func takeHeaderField(_ bytes: UnsafeRawBufferPointer) -> Bool {
        EngineThread.check()
        guard readingHead else { return false }
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let lineBytes = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        guard !Self.isStatusLine(lineBytes), let colon = lineBytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
        // Cut on the bytes (no string for the whole line). Optional whitespace around a value is SP or
        // HTAB (RFC 9110 §5.6.3); Foundation's bridged trimming was a third of the engine.
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = colon + 1, stop = end
        while start < stop, isBlank(lineBytes[start]) { start += 1 }
        while stop > start, isBlank(lineBytes[stop - 1]) { stop -= 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: lineBytes[..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: lineBytes[start..<stop]), as: UTF8.self)
        pendingFields.append(HTTPHeader(name: name, value: value))
        pendingFieldBytes += bytes.count
        return true
    }

    private static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T")
            && line[2] == UInt8(ascii: "T") && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
    }

    /// A line of a response head that is not a field: a status line starts a head, the blank line ends
    /// it (posting `.response`, or `.redirected` for a hop to follow). False aborts the transfer.
    func didReceiveHeadBoundary(_ bytes: UnsafeRawBufferPointer, emit: (TaskEvent.Kind) -> Void) -> Bool {
        EngineThread.check()
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let lineBytes = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        if Self.isStatusLine(lineBytes) {
            pendingHead = Self.statusLine(lineBytes, url: current.url, size: bytes.count)
            readingHead = true
            pendingFields = []
            pendingFields.reserveCapacity(12)
            pendingFieldBytes = 0
        } else if end == 0 {
            guard var complete = pendingHead.take() else { return true }
            readingHead = false
            swap(&complete.headers, &pendingFields)
            complete.size += pendingFieldBytes + bytes.count
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
        return HTTPResponseHead(url: url, httpVersion: string(version.lowerBound + min(version.count, "HTTP/".count)..<version.upperBound),
                                status: code, reason: string(index..<line.count), headers: [], size: size)
    }

    /// The request head of the current hop exactly as libcurl wrote it to the connection.
    func didSendHead(_ bytes: UnsafeRawBufferPointer, emit: (TaskEvent.Kind) -> Void) {
        EngineThread.check()
        guard let parsed = RequestHead(wireBytes: bytes, url: current.url, hop: hops.count) else {
            return
        }
        let head = parsed.asSentOverHTTP2() // HTTP/1-style text from libcurl for what went as an HTTP/2 frame
        sentHeads.append(head)
        emit(.requestSent(head))
    }

    /// Why the body of `head` has no trustworthy length (RFC 9112 §6.3): Content-Length values that
    /// differ, or one that is not a number that fits 63 bits.
    static func framingProblem(_ head: HTTPResponseHead) -> String? {
        // The usual case, one value of digits, read without a copy (Foundation's trimming was 2 % of the engine).
        var count = 0, only = ""
        for header in head.headers where HTTPHeader.namesMatch(header.name, "Content-Length") {
            count += 1
            only = header.value
        }
        if count == 0 || count == 1 && !only.isEmpty && only.utf8.count <= 18 && only.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return nil
        }
        let values = head.headers.values(for: "Content-Length")
        let lengths = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingWhitespace() }
        guard let first = lengths.first else { return nil }
        if lengths.contains(where: { $0 != first }) {
            return "the response has different Content-Length values (\(lengths.joined(separator: ", "))): its body length is unknown"
        }
        if first.isEmpty || !first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || Int64(first) == nil {
            return "the response's Content-Length is not a usable number (\(first.prefix(40))): its body length is unknown"
        }
        return nil
    }

    func headDidEnd(_ complete: HTTPResponseHead, emit: (TaskEvent.Kind) -> Void) {
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
        // The three fields read here, found in one pass over the head (the first of each).
        var contentEncoding: String?, contentLength: String?, contentType: String?
        for header in complete.headers {
            if contentLength == nil, HTTPHeader.namesMatch(header.name, "Content-Length") {
                contentLength = header.value
            } else if contentType == nil, HTTPHeader.namesMatch(header.name, "Content-Type") {
                contentType = header.value
            } else if contentEncoding == nil, HTTPHeader.namesMatch(header.name, "Content-Encoding") {
                contentEncoding = header.value
            }
        }
        let isEncoded = contentEncoding != nil
        watchesDecodedRatio = delegate.maxDecodedRatio != nil && isEncoded
        if !isEncoded { declaredLength = contentLength.flatMap(Int64.init) }
        emit(.response(complete))
        if failure == nil, let kept = delegate.keptStreamMessageBytes,
           let format = StreamMessage.format(contentType: contentType, hasContentLength: contentLength != nil) {
            messages = StreamMessageParser(format: format, keptBytes: kept)
        }
        if failure == nil { delegate.stream?.consumer.didReceiveResponse(complete) }
    }
}
