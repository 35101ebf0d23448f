import Foundation
import ReqtopNetworking
import ReqtopRequestLists

/// A compact binary form of `HARExportEntry` for `EntrySpill`: written and read back by the same
/// process, so there is no versioning; numbers in their memory form, strings and bytes
/// length-prefixed. (`JSONEncoder`/`JSONDecoder` cost 50–70 µs an entry: a recorder fell behind a
/// run of 10,000 requests/s and its backlog grew.)
enum EntrySpillCodec {
    struct Malformed: LocalizedError {
        var errorDescription: String? { "the HAR entries recorded during the session were cut short or damaged" }
    }

    /// Appends `entry` as one record: its length, then its fields.
    static func append(_ entry: HARExportEntry, to out: inout [UInt8]) {
        var writer = Writer()
        writer.double(entry.startedDateTime.timeIntervalSince1970)
        let request = entry.request
        writer.string(request.method)
        writer.string(request.url)
        writer.string(request.httpVersion)
        writer.headers(request.headers)
        writer.data(request.body)
        writer.int(request.headersSize)
        let response = entry.response
        writer.int(response.status)
        writer.string(response.statusText)
        writer.string(response.httpVersion)
        writer.headers(response.headers)
        writer.int(response.bodySize)
        writer.string(response.mimeType)
        writer.data(response.body)
        writer.int(response.headersSize)
        let t = entry.timings
        for value in [t.blocked, t.dns, t.connect, t.ssl, t.send, t.wait, t.receive, entry.time] { writer.double(value) }
        writer.string(entry.serverIPAddress)
        writer.string(entry.comment)
        writer.string(entry.error)
        writer.int(entry.tests.count)
        for test in entry.tests {
            writer.string(test.name)
            writer.int(test.passed ? 1 : 0)
            writer.string(test.message)
        }
        writer.string(entry.connection)
        writer.int(entry.streamMessages.count)
        for timed in entry.streamMessages {
            let m = timed.message
            writer.double(timed.time)
            writer.string(m.format.rawValue)
            writer.int(m.index)
            writer.string(m.event)
            writer.string(m.id)
            writer.int(m.retry ?? -1)
            writer.string(m.data)
            writer.int(m.size)
            writer.int((m.isWhole ? 1 : 0) | (m.isComplete ? 2 : 0) | (m.direction == .send ? 4 : 0) | (m.direction == .receive ? 8 : 0))
            writer.int(m.opcode ?? -1)
            writer.int(m.closeCode ?? -1)
        }
        withUnsafeBytes(of: UInt64(writer.bytes.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: writer.bytes)
    }

    /// The entries of `bytes` (whole records), and how many bytes they took; a partial record at the end is left.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ body: (HARExportEntry) throws -> Void) throws -> Int {
        var offset = 0
        while bytes.count - offset >= 8 {
            let length = Int(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            guard length >= 0, bytes.count - offset - 8 >= length else { break }
            var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)]))
            try body(try reader.entry())
            offset += 8 + length
        }
        return offset
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func int(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }

        mutating func string(_ value: String?) {
            guard let value else { return int(-1) }
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func data(_ value: Data?) {
            guard let value else { return int(-1) }
            int(value.count)
            bytes.append(contentsOf: value)
        }

        mutating func headers(_ headers: [HTTPHeader]) {
            int(headers.count)
            for header in headers {
                string(header.name)
                string(header.value)
            }
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func raw(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
            guard count >= 0, bytes.count - offset >= count else { throw Malformed() }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }

        mutating func int() throws(Malformed) -> Int { Int(Int64(littleEndian: try raw(8).loadUnaligned(as: Int64.self))) }
        mutating func double() throws(Malformed) -> Double { Double(bitPattern: UInt64(littleEndian: try raw(8).loadUnaligned(as: UInt64.self))) }

        mutating func optionalString() throws(Malformed) -> String? {
            let count = try int()
            return count < 0 ? nil : String(decoding: try raw(count), as: UTF8.self)
        }

        mutating func string() throws(Malformed) -> String {
            guard let value = try optionalString() else { throw Malformed() }
            return value
        }

        mutating func data() throws(Malformed) -> Data? {
            let count = try int()
            return count < 0 ? nil : Data(try raw(count))
        }

        mutating func headers() throws(Malformed) -> [HTTPHeader] {
            let count = try int()
            guard count >= 0 else { throw Malformed() }
            var headers: [HTTPHeader] = []
            headers.reserveCapacity(count)
            for _ in 0..<count { headers.append(HTTPHeader(name: try string(), value: try string())) }
            return headers
        }

        mutating func entry() throws(Malformed) -> HARExportEntry {
            let started = Date(timeIntervalSince1970: try double())
            let request = HARExportEntry.Request(method: try string(), url: try string(), httpVersion: try string(), headers: try headers(),
                                                 body: try data(), headersSize: try int())
            let response = HARExportEntry.Response(status: try int(), statusText: try string(), httpVersion: try string(),
                                                   headers: try headers(), bodySize: try int(), mimeType: try string(), body: try data(),
                                                   headersSize: try int())
            let timings = HARTimings(blocked: try double(), dns: try double(), connect: try double(), ssl: try double(),
                                     send: try double(), wait: try double(), receive: try double())
            var entry = HARExportEntry(startedDateTime: started, request: request, response: response, timings: timings, time: try double(),
                                       serverIPAddress: try optionalString(), comment: try optionalString(), error: try optionalString())
            let tests = try int()
            guard tests >= 0 else { throw Malformed() }
            for _ in 0..<tests {
                entry.tests.append(TestResult(name: try string(), passed: try int() != 0, message: try optionalString()))
            }
            entry.connection = try optionalString()
            let messages = try int()
            guard messages >= 0 else { throw Malformed() }
            for _ in 0..<messages {
                let time = try double()
                guard let format = StreamMessage.Format(rawValue: try string()) else { throw Malformed() }
                let index = try int(), event = try optionalString(), id = try optionalString(), retry = try int()
                let data = try string(), size = try int(), flags = try int(), opcode = try int(), closeCode = try int()
                var message = StreamMessage(format: format, index: index, event: event, id: id, retry: retry < 0 ? nil : retry, data: data,
                                            size: size, isWhole: flags & 1 != 0, isComplete: flags & 2 != 0)
                message.direction = flags & 4 != 0 ? .send : flags & 8 != 0 ? .receive : nil
                message.opcode = opcode < 0 ? nil : opcode
                message.closeCode = closeCode < 0 ? nil : closeCode
                entry.streamMessages.append(.init(time: time, message: message))
            }
            return entry
        }
    }
}
