import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking

/// The binary form (`BinaryWriter`) of a finished `TaskRecord` in the store's packed blocks: every
/// field, a URL equal to the request's as one byte.
///
/// Not every record is packed: one whose body is in a file or larger than `inlineBodyLimit`
/// keeps that body beside the row, and one with a stream's messages stays whole (`canPack`).
enum RecordCodec {
    /// Bodies up to this size go into the packed form; larger ones stay beside it, under the store's body budget.
    static let inlineBodyLimit = 1024

    /// Whether `record` can be packed: it has ended, it has no stream messages, and every URL in it
    /// reads back as itself.
    static func canPack(_ record: TaskRecord) -> Bool {
        guard record.state.isTerminal, record.messages == nil else { return false }
        return HTTPURL(string: record.url.absoluteString)?.absoluteString == record.url.absoluteString
    }

    /// Whether `body` goes into the packed form (else it is kept beside it).
    static func packsBody(_ body: ResponseBody?) -> Bool {
        switch body {
        case .none: true
        case .data(let data)?: data.count <= inlineBodyLimit
        case .file?: false
        }
    }

    /// Appends `record` (its body only when `packsBody`) to `out`; false, with `out` unchanged,
    /// when a URL in it would not read back as itself.
    static func append(_ record: TaskRecord, to out: inout [UInt8]) -> Bool {
        var writer = Writer(out: BinaryWriter(bytes: out), base: record.url.absoluteString)
        out = [] // (the writer's copy is the only one: it grows in place)
        writer.write(record)
        out = writer.out.bytes
        if writer.unreadableURL { out.removeSubrange((out.count - writer.written)...) }
        return !writer.unreadableURL
    }

    /// The record packed at the start of `bytes`.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryReader.Malformed) -> TaskRecord {
        var reader = Reader(input: BinaryReader(bytes: bytes))
        return try reader.record()
    }

    // MARK: Writing

    private struct Writer {
        var out: BinaryWriter
        let base: String
        var unreadableURL = false
        let start: Int

        init(out: BinaryWriter, base: String) {
            self.out = out
            self.base = base
            start = out.bytes.count
        }

        var written: Int { out.bytes.count - start }

        /// A URL: −2 when it is the request's, else its text (checked to read back as itself).
        mutating func url(_ url: HTTPURL) {
            if url.absoluteString == base { return out.int(-2) }
            if HTTPURL(string: url.absoluteString)?.absoluteString != url.absoluteString { unreadableURL = true }
            out.string(url.absoluteString)
        }

        mutating func timings(_ timings: PhaseTimings?) {
            guard let t = timings else { return out.byte(0) }
            out.byte(1)
            for value in [t.redirect, t.dns, t.connect, t.tls, t.send, t.wait, t.receive, t.total] { out.double(value) }
        }

        mutating func response(_ head: HTTPResponseHead) {
            url(head.url)
            out.string(head.httpVersion)
            out.int(head.status)
            out.string(head.reason)
            out.headers(head.headers)
            out.int(head.size)
        }

        mutating func write(_ r: TaskRecord) {
            out.int(r.id.rawValue)
            out.optionalString(r.name)
            out.string(r.kind.rawValue)
            out.string(r.state.rawValue)
            // The request as given.
            out.string(r.request.method)
            out.string(base)
            out.headers(r.request.headers)
            switch r.request.body {
            case .none: out.byte(0)
            case .data(let data): out.byte(1); out.data(data)
            case .file(let path): out.byte(2); out.string(path)
            }
            let o = r.request.options
            out.optionalDouble(o.timeout); out.bool(o.followRedirects); out.optionalInt(o.maxRedirects); out.bool(o.trustedRedirects)
            out.bool(o.insecure); out.bool(o.compressed)
            out.int(o.omittedHeaders.map(\.count) ?? -1)
            for name in o.omittedHeaders ?? [] { out.string(name) }
            out.optionalString(o.httpVersion?.rawValue)
            // What went on the wire and came back.
            out.int(r.sentHeads.count)
            for head in r.sentHeads {
                url(head.url); out.string(head.method); out.string(head.target); out.string(head.httpVersion)
                out.headers(head.headers); out.int(head.size); out.int(head.hop)
            }
            out.byte(r.response == nil ? 0 : 1)
            if let response = r.response { self.response(response) }
            out.int(r.redirects.count)
            for hop in r.redirects {
                out.int(hop.status); url(hop.from); url(hop.to); response(hop.response); timings(hop.timings)
            }
            out.int(Int(r.downloaded)); out.int(Int(r.downloadTotal)); out.int(Int(r.uploaded)); out.int(Int(r.uploadTotal))
            out.double(r.createdAt); out.optionalDouble(r.startedAt); out.optionalDouble(r.endedAt)
            timings(r.timings)
            if let error = r.error {
                out.byte(1); out.string(error.code.rawValue); out.string(error.message); out.optionalInt(error.curlCode)
            } else {
                out.byte(0)
            }
            if case .data(let body)? = r.body, body.count <= RecordCodec.inlineBodyLimit {
                out.byte(1); out.data(body)
            } else {
                out.byte(0) // none, or kept beside the packed form
            }
            out.int(r.tests.count)
            for test in r.tests { out.string(test.name); out.bool(test.passed); out.optionalString(test.message) }
            out.int(r.scriptLogs.count)
            for log in r.scriptLogs { out.string(log.level.rawValue); out.string(log.text) }
            if let c = r.connection {
                out.byte(1); out.int(c.localPort); out.string(c.remoteAddress); out.int(c.remotePort)
            } else {
                out.byte(0)
            }
            out.optionalInt(r.streamedBodyBytes.map(Int.init))
            out.bool(r.bodyReleased)
            out.int(r.revision)
            out.int(r.timeline.count)
            for entry in r.timeline {
                out.double(entry.time)
                out.string(entry.event.rawValue)
                switch entry.detail {
                case .none: out.byte(0)
                case .progress(let p): out.byte(1); out.string(p.direction.rawValue); out.int(Int(p.completed)); out.int(Int(p.total))
                case .hop(let n): out.byte(2); out.int(n)
                case .sent(let n): out.byte(3); out.int(n)
                case .completion(let serializer, let error): out.byte(4); out.string(serializer); out.optionalString(error)
                case .test(let n): out.byte(5); out.int(n)
                case .log(let n): out.byte(6); out.int(n)
                case .messages(let first, let count): out.byte(7); out.int(first); out.int(count)
                }
            }
        }
    }

    // MARK: Reading

    private struct Reader {
        var input: BinaryReader
        var baseURL: HTTPURL?

        mutating func readURL() throws(BinaryReader.Malformed) -> HTTPURL {
            let count = try input.int()
            if count == -2, let baseURL { return baseURL }
            guard let url = HTTPURL(string: String(decoding: try input.raw(count), as: UTF8.self)) else { throw BinaryReader.Malformed() }
            return url
        }

        mutating func timings() throws(BinaryReader.Malformed) -> PhaseTimings? {
            guard try input.byte() == 1 else { return nil }
            let redirect = try input.double()
            var t = PhaseTimings(dns: try input.double(), connect: try input.double(), tls: try input.double(), send: try input.double(),
                                 wait: try input.double(), receive: try input.double(), total: try input.double())
            t.redirect = redirect
            return t
        }

        mutating func response() throws(BinaryReader.Malformed) -> HTTPResponseHead {
            HTTPResponseHead(url: try readURL(), httpVersion: try input.string(), status: try input.int(), reason: try input.string(),
                             headers: try input.headers(), size: try input.int())
        }

        mutating func record() throws(BinaryReader.Malformed) -> TaskRecord {
            let id = TaskID(rawValue: try input.int())
            let name = try input.optionalString()
            let kind = try input.value(TaskKind.self)
            let state = try input.value(TaskState.self)
            let method = try input.string()
            guard let url = HTTPURL(string: try input.string()) else { throw BinaryReader.Malformed() }
            baseURL = url
            var request = HTTPRequest(method: method, url: url, headers: try input.headers())
            switch try input.byte() {
            case 0: request.body = .none
            case 1: request.body = .data(try input.data())
            case 2: request.body = .file(path: try input.string())
            default: throw BinaryReader.Malformed()
            }
            request.options.timeout = try input.optionalDouble()
            request.options.followRedirects = try input.bool()
            request.options.maxRedirects = try input.optionalInt()
            request.options.trustedRedirects = try input.bool()
            request.options.insecure = try input.bool()
            request.options.compressed = try input.bool()
            let omitted = try input.int()
            if omitted >= 0 {
                var names: [String] = []
                for _ in 0..<omitted { names.append(try input.string()) }
                request.options.omittedHeaders = names
            }
            if let version = try input.optionalString() {
                guard let parsed = HTTPRequest.HTTPVersion(rawValue: version) else { throw BinaryReader.Malformed() }
                request.options.httpVersion = parsed
            }
            var r = TaskRecord(id: id, name: name, kind: kind, state: state, request: request, createdAt: 0)
            for _ in 0..<(try input.count()) {
                r.sentHeads.append(RequestHead(url: try readURL(), method: try input.string(), target: try input.string(),
                                               httpVersion: try input.string(), headers: try input.headers(), size: try input.int(),
                                               hop: try input.int()))
            }
            if try input.byte() == 1 { r.response = try response() }
            for _ in 0..<(try input.count()) {
                r.redirects.append(RedirectHop(status: try input.int(), from: try readURL(), to: try readURL(), response: try response(),
                                               timings: try timings()))
            }
            r.downloaded = Int64(try input.int()); r.downloadTotal = Int64(try input.int())
            r.uploaded = Int64(try input.int()); r.uploadTotal = Int64(try input.int())
            r.createdAt = try input.double(); r.startedAt = try input.optionalDouble(); r.endedAt = try input.optionalDouble()
            r.timings = try timings()
            if try input.byte() == 1 {
                r.error = TransferError(code: try input.value(TransferError.Code.self), message: try input.string(),
                                        curlCode: try input.optionalInt())
            }
            if try input.byte() == 1 { r.body = .data(try input.data()) }
            for _ in 0..<(try input.count()) {
                guard let name = try input.optionalString(), let passed = try input.bool() else { throw BinaryReader.Malformed() }
                r.tests.append(TestResult(name: name, passed: passed, message: try input.optionalString()))
            }
            for _ in 0..<(try input.count()) {
                r.scriptLogs.append(ScriptLog(level: try input.value(ScriptLog.Level.self), text: try input.string()))
            }
            if try input.byte() == 1 {
                r.connection = TransferConnection(localPort: try input.int(), remoteAddress: try input.string(), remotePort: try input.int())
            }
            r.streamedBodyBytes = try input.optionalInt().map(Int64.init)
            r.bodyReleased = try input.bool() ?? false
            r.revision = try input.int()
            for _ in 0..<(try input.count()) {
                let time = try input.double()
                let event = try input.value(TaskEvent.Name.self)
                let detail: TimelineEntry.Detail
                switch try input.byte() {
                case 0: detail = .none
                case 1: detail = .progress(TransferProgress(direction: try input.value(TransferProgress.Direction.self),
                                                            completed: Int64(try input.int()), total: Int64(try input.int())))
                case 2: detail = .hop(try input.int())
                case 3: detail = .sent(try input.int())
                case 4: detail = .completion(serializer: try input.string(), serializationError: try input.optionalString())
                case 5: detail = .test(try input.int())
                case 6: detail = .log(try input.int())
                case 7: detail = .messages(first: try input.int(), count: try input.int())
                default: throw BinaryReader.Malformed()
                }
                r.timeline.append(TimelineEntry(time: time, event: event, detail: detail))
            }
            return r
        }
    }
}
