import Foundation
import ReqtopNetworking

/// The binary form of a finished `TaskRecord` in the store's packed blocks: written and read back
/// by the same process (no versioning); integers as LEB128 varints, strings and bytes
/// length-prefixed, a URL equal to the request's as one byte.
///
/// Not every record is packed: one whose body is in a file or larger than `inlineBodyLimit`
/// keeps that body beside the row, and one with a stream's messages stays whole (`canPack`).
enum RecordCodec {
    struct Malformed: Error {}

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
        let start = out.count
        var writer = Writer(bytes: out, base: record.url.absoluteString)
        out = []
        writer.write(record)
        out = writer.bytes
        if writer.unreadableURL { out.removeSubrange(start...) }
        return !writer.unreadableURL
    }

    /// The record at the start of `bytes`; `body` replaces the packed one when the body was kept apart.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> TaskRecord {
        var reader = Reader(bytes: bytes)
        return try reader.record()
    }

    // MARK: Writing

    private struct Writer {
        var bytes: [UInt8]
        let base: String
        var unreadableURL = false

        mutating func int(_ value: Int) {
            var zigzag = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
            while zigzag >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
                zigzag >>= 7
            }
            bytes.append(UInt8(zigzag))
        }

        mutating func int(_ value: Int?) { int(value.map { $0 >= 0 ? $0 + 1 : $0 } ?? 0) } // 0: nil; n ≥ 0 as n + 1
        mutating func int64(_ value: Int64) { int(Int(value)) }
        mutating func bool(_ value: Bool?) { bytes.append(value.map { $0 ? 2 : 1 } ?? 0) }
        mutating func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }

        mutating func double(_ value: Double?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { double(value) }
        }

        mutating func string(_ value: String) {
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func string(_ value: String?) {
            guard let value else { return int(-1) }
            string(value)
        }

        mutating func data(_ value: Data) {
            int(value.count)
            bytes.append(contentsOf: value)
        }

        /// A URL: −2 when it is the request's, else its text (checked to read back as itself).
        mutating func url(_ url: HTTPURL) {
            if url.absoluteString == base { return int(-2) }
            if HTTPURL(string: url.absoluteString)?.absoluteString != url.absoluteString { unreadableURL = true }
            string(url.absoluteString)
        }

        mutating func headers(_ headers: [HTTPHeader]) {
            int(headers.count)
            for header in headers {
                string(header.name)
                string(header.value)
            }
        }

        mutating func timings(_ timings: PhaseTimings?) {
            guard let t = timings else { return bytes.append(0) }
            bytes.append(1)
            for value in [t.redirect, t.dns, t.connect, t.tls, t.send, t.wait, t.receive, t.total] { double(value) }
        }

        mutating func response(_ head: HTTPResponseHead) {
            url(head.url)
            string(head.httpVersion)
            int(head.status)
            string(head.reason)
            headers(head.headers)
            int(head.size)
        }

        mutating func write(_ r: TaskRecord) {
            int(r.id.rawValue)
            string(r.name)
            string(r.kind.rawValue)
            string(r.state.rawValue)
            // The request as given.
            string(r.request.method)
            string(base)
            headers(r.request.headers)
            switch r.request.body {
            case .none: bytes.append(0)
            case .data(let data): bytes.append(1); self.data(data)
            case .file(let path): bytes.append(2); string(path)
            }
            let o = r.request.options
            double(o.timeout); bool(o.followRedirects); int(o.maxRedirects); bool(o.trustedRedirects)
            bool(o.insecure); bool(o.compressed)
            int(o.omittedHeaders.map(\.count) ?? -1)
            for name in o.omittedHeaders ?? [] { string(name) }
            string(o.httpVersion?.rawValue)
            // What went on the wire and came back.
            int(r.sentHeads.count)
            for head in r.sentHeads {
                url(head.url); string(head.method); string(head.target); string(head.httpVersion)
                headers(head.headers); int(head.size); int(head.hop)
            }
            bytes.append(r.response == nil ? 0 : 1)
            if let response = r.response { self.response(response) }
            int(r.redirects.count)
            for hop in r.redirects {
                int(hop.status); url(hop.from); url(hop.to); response(hop.response); timings(hop.timings)
            }
            int64(r.downloaded); int64(r.downloadTotal); int64(r.uploaded); int64(r.uploadTotal)
            double(r.createdAt); double(r.startedAt); double(r.endedAt)
            timings(r.timings)
            if let error = r.error {
                bytes.append(1); string(error.code.rawValue); string(error.message); int(error.curlCode)
            } else {
                bytes.append(0)
            }
            if case .data(let body)? = r.body, body.count <= RecordCodec.inlineBodyLimit {
                bytes.append(1); data(body)
            } else {
                bytes.append(0) // none, or kept beside the packed form
            }
            int(r.tests.count)
            for test in r.tests { string(test.name); bool(test.passed); string(test.message) }
            int(r.scriptLogs.count)
            for log in r.scriptLogs { string(log.level.rawValue); string(log.text) }
            if let c = r.connection {
                bytes.append(1); int(c.localPort); string(c.remoteAddress); int(c.remotePort)
            } else {
                bytes.append(0)
            }
            int(r.streamedBodyBytes.map(Int.init))
            bool(r.bodyReleased)
            int(r.revision)
            int(r.timeline.count)
            for entry in r.timeline {
                double(entry.time)
                string(entry.event.rawValue)
                switch entry.detail {
                case .none: bytes.append(0)
                case .progress(let p): bytes.append(1); string(p.direction.rawValue); int64(p.completed); int64(p.total)
                case .hop(let n): bytes.append(2); int(n)
                case .sent(let n): bytes.append(3); int(n)
                case .completion(let serializer, let error): bytes.append(4); string(serializer); string(error)
                case .test(let n): bytes.append(5); int(n)
                case .log(let n): bytes.append(6); int(n)
                case .messages(let first, let count): bytes.append(7); int(first); int(count)
                }
            }
        }
    }

    // MARK: Reading

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        var base = ""
        var baseURL: HTTPURL?

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func byte() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed() }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func int() throws(Malformed) -> Int {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = try byte()
                guard shift < 64 else { throw Malformed() }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
        }

        mutating func optionalInt() throws(Malformed) -> Int? {
            let value = try int()
            return value == 0 ? nil : (value > 0 ? value - 1 : value)
        }

        mutating func int64() throws(Malformed) -> Int64 { Int64(try int()) }

        mutating func bool() throws(Malformed) -> Bool? {
            switch try byte() {
            case 0: nil
            case 1: false
            case 2: true
            default: throw Malformed()
            }
        }

        mutating func double() throws(Malformed) -> Double {
            guard bytes.count - offset >= 8 else { throw Malformed() }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }

        mutating func optionalDouble() throws(Malformed) -> Double? { try byte() == 0 ? nil : try double() }

        mutating func raw(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
            guard count >= 0, bytes.count - offset >= count else { throw Malformed() }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }

        mutating func optionalString() throws(Malformed) -> String? {
            let count = try int()
            return count < 0 ? nil : String(decoding: try raw(count), as: UTF8.self)
        }

        mutating func string() throws(Malformed) -> String {
            guard let value = try optionalString() else { throw Malformed() }
            return value
        }

        mutating func data() throws(Malformed) -> Data { Data(try raw(try int())) }

        mutating func readURL() throws(Malformed) -> HTTPURL {
            let count = try int()
            if count == -2, let baseURL { return baseURL }
            guard let url = HTTPURL(string: String(decoding: try raw(count), as: UTF8.self)) else { throw Malformed() }
            return url
        }

        mutating func headers() throws(Malformed) -> [HTTPHeader] {
            let count = try int()
            guard count >= 0 else { throw Malformed() }
            var headers: [HTTPHeader] = []
            headers.reserveCapacity(count)
            for _ in 0..<count { headers.append(HTTPHeader(name: try string(), value: try string())) }
            return headers
        }

        mutating func timings() throws(Malformed) -> PhaseTimings? {
            guard try byte() == 1 else { return nil }
            let redirect = try double()
            var t = PhaseTimings(dns: try double(), connect: try double(), tls: try double(), send: try double(),
                                 wait: try double(), receive: try double(), total: try double())
            t.redirect = redirect
            return t
        }

        mutating func response() throws(Malformed) -> HTTPResponseHead {
            HTTPResponseHead(url: try readURL(), httpVersion: try string(), status: try int(), reason: try string(),
                             headers: try headers(), size: try int())
        }

        mutating func enumValue<T: RawRepresentable<String>>(_: T.Type) throws(Malformed) -> T {
            guard let value = T(rawValue: try string()) else { throw Malformed() }
            return value
        }

        mutating func record() throws(Malformed) -> TaskRecord {
            let id = TaskID(rawValue: try int())
            let name = try optionalString()
            let kind = try enumValue(TaskKind.self)
            let state = try enumValue(TaskState.self)
            let method = try string()
            base = try string()
            guard let url = HTTPURL(string: base) else { throw Malformed() }
            baseURL = url
            var request = HTTPRequest(method: method, url: url, headers: try headers())
            switch try byte() {
            case 0: request.body = .none
            case 1: request.body = .data(try data())
            case 2: request.body = .file(path: try string())
            default: throw Malformed()
            }
            request.options.timeout = try optionalDouble()
            request.options.followRedirects = try bool()
            request.options.maxRedirects = try optionalInt()
            request.options.trustedRedirects = try bool()
            request.options.insecure = try bool()
            request.options.compressed = try bool()
            let omitted = try int()
            if omitted >= 0 {
                var names: [String] = []
                for _ in 0..<omitted { names.append(try string()) }
                request.options.omittedHeaders = names
            }
            if let version = try optionalString() {
                guard let parsed = HTTPRequest.HTTPVersion(rawValue: version) else { throw Malformed() }
                request.options.httpVersion = parsed
            }
            var r = TaskRecord(id: id, name: name, kind: kind, state: state, request: request, createdAt: 0)
            let sent = try int()
            for _ in 0..<max(0, sent) {
                r.sentHeads.append(RequestHead(url: try readURL(), method: try string(), target: try string(), httpVersion: try string(),
                                               headers: try headers(), size: try int(), hop: try int()))
            }
            if try byte() == 1 { r.response = try response() }
            let hops = try int()
            for _ in 0..<max(0, hops) {
                r.redirects.append(RedirectHop(status: try int(), from: try readURL(), to: try readURL(), response: try response(),
                                               timings: try timings()))
            }
            r.downloaded = try int64(); r.downloadTotal = try int64(); r.uploaded = try int64(); r.uploadTotal = try int64()
            r.createdAt = try double(); r.startedAt = try optionalDouble(); r.endedAt = try optionalDouble()
            r.timings = try timings()
            if try byte() == 1 {
                r.error = TransferError(code: try enumValue(TransferError.Code.self), message: try string(), curlCode: try optionalInt())
            }
            if try byte() == 1 { r.body = .data(try data()) }
            let tests = try int()
            for _ in 0..<max(0, tests) {
                guard let name = try optionalString(), let passed = try bool() else { throw Malformed() }
                r.tests.append(TestResult(name: name, passed: passed, message: try optionalString()))
            }
            let logs = try int()
            for _ in 0..<max(0, logs) { r.scriptLogs.append(ScriptLog(level: try enumValue(ScriptLog.Level.self), text: try string())) }
            if try byte() == 1 {
                r.connection = TransferConnection(localPort: try int(), remoteAddress: try string(), remotePort: try int())
            }
            r.streamedBodyBytes = try optionalInt().map(Int64.init)
            r.bodyReleased = try bool() ?? false
            r.revision = try int()
            let entries = try int()
            r.timeline.reserveCapacity(max(0, entries))
            for _ in 0..<max(0, entries) {
                let time = try double()
                let event = try enumValue(TaskEvent.Name.self)
                let detail: TimelineEntry.Detail
                switch try byte() {
                case 0: detail = .none
                case 1: detail = .progress(TransferProgress(direction: try enumValue(TransferProgress.Direction.self),
                                                            completed: try int64(), total: try int64()))
                case 2: detail = .hop(try int())
                case 3: detail = .sent(try int())
                case 4: detail = .completion(serializer: try string(), serializationError: try optionalString())
                case 5: detail = .test(try int())
                case 6: detail = .log(try int())
                case 7: detail = .messages(first: try int(), count: try int())
                default: throw Malformed()
                }
                r.timeline.append(TimelineEntry(time: time, event: event, detail: detail))
            }
            return r
        }
    }
}
