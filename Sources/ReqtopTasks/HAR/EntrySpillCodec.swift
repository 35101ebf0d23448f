import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists

/// A compact binary form of `HARExportEntry` for `EntrySpill`: written and read back by the same
/// process (`BinaryWriter`), each record behind its length. (`JSONEncoder`/`JSONDecoder` cost 50–70 µs an entry: a recorder fell behind a
/// run of 10,000 requests/s and its backlog grew.)
enum EntrySpillCodec {
    struct Malformed: LocalizedError {
        var errorDescription: String? { "the HAR entries recorded during the session were cut short or damaged" }
    }

    /// Appends `entry` as one record: its length, then its fields.
    static func append(_ entry: HARExportEntry, to out: inout [UInt8]) {
        var writer = BinaryWriter()
        writer.double(entry.startedDateTime.timeIntervalSince1970)
        let request = entry.request
        writer.string(request.method)
        writer.string(request.url)
        writer.string(request.httpVersion)
        writer.headers(request.headers)
        writer.optionalData(request.body)
        writer.int(request.headersSize)
        let response = entry.response
        writer.int(response.status)
        writer.string(response.statusText)
        writer.string(response.httpVersion)
        writer.headers(response.headers)
        writer.int(response.bodySize)
        writer.string(response.mimeType)
        writer.optionalData(response.body)
        writer.int(response.headersSize)
        let t = entry.timings
        for value in [t.blocked, t.dns, t.connect, t.ssl, t.send, t.wait, t.receive, entry.time] { writer.double(value) }
        writer.optionalString(entry.serverIPAddress)
        writer.optionalString(entry.comment)
        writer.optionalString(entry.error)
        writer.int(entry.tests.count)
        for test in entry.tests {
            writer.string(test.name)
            writer.int(test.passed ? 1 : 0)
            writer.optionalString(test.message)
        }
        writer.optionalString(entry.connection)
        writer.int(entry.streamMessages.count)
        for timed in entry.streamMessages {
            let m = timed.message
            writer.double(timed.time)
            writer.string(m.format.rawValue)
            writer.int(m.index)
            writer.optionalString(m.event)
            writer.optionalString(m.id)
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
            var reader = Reader(input: BinaryReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])))
            let entry: HARExportEntry
            do { entry = try reader.entry() } catch { throw Malformed() }
            try body(entry)
            offset += 8 + length
        }
        return offset
    }

    private struct Reader {
        var input: BinaryReader

        mutating func entry() throws(BinaryReader.Malformed) -> HARExportEntry {
            let started = Date(timeIntervalSince1970: try input.double())
            let request = HARExportEntry.Request(method: try input.string(), url: try input.string(), httpVersion: try input.string(), headers: try input.headers(),
                                                 body: try input.optionalData(), headersSize: try input.int())
            let response = HARExportEntry.Response(status: try input.int(), statusText: try input.string(), httpVersion: try input.string(),
                                                   headers: try input.headers(), bodySize: try input.int(), mimeType: try input.string(), body: try input.optionalData(),
                                                   headersSize: try input.int())
            let timings = HARTimings(blocked: try input.double(), dns: try input.double(), connect: try input.double(), ssl: try input.double(),
                                     send: try input.double(), wait: try input.double(), receive: try input.double())
            var entry = HARExportEntry(startedDateTime: started, request: request, response: response, timings: timings, time: try input.double(),
                                       serverIPAddress: try input.optionalString(), comment: try input.optionalString(), error: try input.optionalString())
            let tests = try input.int()
            guard tests >= 0 else { throw BinaryReader.Malformed() }
            for _ in 0..<tests {
                entry.tests.append(TestResult(name: try input.string(), passed: try input.int() != 0, message: try input.optionalString()))
            }
            entry.connection = try input.optionalString()
            let messages = try input.int()
            guard messages >= 0 else { throw BinaryReader.Malformed() }
            for _ in 0..<messages {
                let time = try input.double()
                guard let format = StreamMessage.Format(rawValue: try input.string()) else { throw BinaryReader.Malformed() }
                let index = try input.int(), event = try input.optionalString(), id = try input.optionalString(), retry = try input.int()
                let data = try input.string(), size = try input.int(), flags = try input.int(), opcode = try input.int(), closeCode = try input.int()
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
