import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One field of an event line: its key, how it is written and how it is read back.
package struct EventLineField: Sendable {
    package let key: StaticString
    let name: String
    let write: @Sendable (EventLine, inout JSONObjectWriter) -> Void
    let read: @Sendable (JSONValue, inout EventLine) -> Void

    init(_ key: StaticString, write: @escaping @Sendable (EventLine, inout JSONObjectWriter) -> Void,
         read: @escaping @Sendable (JSONValue, inout EventLine) -> Void) {
        self.key = key
        name = "\(key)"
        self.write = write
        self.read = read
    }
}

extension EventLine {
    /// Every field, in the sorted order lines are written in: the single definition that both
    /// `write(to:)` and `init(json:)` go through. An absent (nil) field is not written.
    package static let fields: [EventLineField] = [
        .base64("body", { $0.body }, { $0.body = $1 }),
        .string("bodyFile", { $0.bodyFile }, { $0.bodyFile = $1 }),
        .string("bodyOmitted", { $0.bodyOmitted }, { $0.bodyOmitted = $1 }),
        .integer("bytes", { $0.bytes }, { $0.bytes = $1 }),
        .integer("closeCode", { $0.closeCode.map(Int64.init) }, { $0.closeCode = Int($1) }),
        .integer("completed", { $0.completed }, { $0.completed = $1 }),
        EventLineField("connection", write: { line, json in
            guard let connection = line.connection else { return }
            json.object("connection") { inner in
                inner.number("localPort", connection.localPort)
                inner.string("remote", connection.remoteAddress)
                inner.number("remotePort", connection.remotePort)
            }
        }, read: { value, line in
            guard let local = JSONReading.integer(value["localPort"]), let remote = value["remote"]?.stringValue,
                  let port = JSONReading.integer(value["remotePort"]) else { return }
            line.connection = TransferConnection(localPort: Int(local), remoteAddress: remote, remotePort: Int(port))
        }),
        .string("data", { $0.data }, { $0.data = $1 }),
        .string("destination", { $0.destination }, { $0.destination = $1 }),
        .string("direction", { $0.direction }, { $0.direction = $1 }),
        EventLineField("error", write: { line, json in
            guard let error = line.error else { return }
            json.object("error") { inner in
                inner.string("code", error.code)
                if let curl = error.curl { inner.number("curl", curl) }
                inner.string("message", error.message)
            }
        }, read: { value, line in
            guard let code = value["code"]?.stringValue else { return }
            line.error = ErrorField(code: code, curl: JSONReading.integer(value["curl"]).map(Int.init), message: value["message"]?.stringValue ?? code)
        }),
        .string("event", { $0.event }, { $0.event = $1 }),
        .string("format", { $0.format }, { $0.format = $1 }),
        .string("from", { $0.from }, { $0.from = $1 }),
        EventLineField("headers", write: { line, json in line.headers.map { json.headers("headers", $0) } },
                       read: { value, line in line.headers = JSONReading.headers(value) }),
        .integer("hop", { $0.hop.map(Int64.init) }, { $0.hop = Int($1) }),
        EventLineField("hopTimings", write: { line, json in line.hopTimings.map { json.timingsList("hopTimings", $0) } },
                       read: { value, line in
            guard case .array(let list) = value else { return }
            line.hopTimings = list.map(JSONReading.timings)
        }),
        .string("id", { $0.id }, { $0.id = $1 }),
        .flag("incomplete", { $0.incomplete }, { $0.incomplete = $1 }),
        .integer("index", { $0.index.map(Int64.init) }, { $0.index = Int($1) }),
        .string("kind", { $0.kind }, { $0.kind = $1 }),
        .string("level", { $0.level }, { $0.level = $1 }),
        .string("message", { $0.message }, { $0.message = $1 }),
        .string("method", { $0.method }, { $0.method = $1 }),
        .string("name", { $0.name }, { $0.name = $1 }),
        .integer("opcode", { $0.opcode.map(Int64.init) }, { $0.opcode = Int($1) }),
        EventLineField("options", write: { line, json in line.options.map { json.options("options", $0) } },
                       read: { value, line in line.options = JSONReading.options(value) }),
        .flag("partial", { $0.partial }, { $0.partial = $1 }),
        EventLineField("passed", write: { line, json in line.passed.map { json.bool("passed", $0) } },
                       read: { value, line in line.passed = JSONReading.bool(value) }),
        .string("reason", { $0.reason }, { $0.reason = $1 }),
        .base64("requestBody", { $0.requestBody }, { $0.requestBody = $1 }),
        .integer("requestBytes", { $0.requestBytes }, { $0.requestBytes = $1 }),
        .integer("retry", { $0.retry.map(Int64.init) }, { $0.retry = Int($1) }),
        .string("serializationError", { $0.serializationError }, { $0.serializationError = $1 }),
        .string("serializer", { $0.serializer }, { $0.serializer = $1 }),
        .integer("size", { $0.size.map(Int64.init) }, { $0.size = Int($1) }),
        .integer("status", { $0.status.map(Int64.init) }, { $0.status = Int($1) }),
        .string("target", { $0.target }, { $0.target = $1 }),
        .integer("task", { Int64($0.task) }, { $0.task = Int($1) }),
        .number("time", { $0.time }, { $0.time = $1 }),
        EventLineField("timings", write: { line, json in line.timings.map { json.timings("timings", $0) } },
                       read: { value, line in line.timings = JSONReading.timings(value) }),
        .string("to", { $0.to }, { $0.to = $1 }),
        .integer("total", { $0.total }, { $0.total = $1 }),
        .string("url", { $0.url }, { $0.url = $1 }),
        .string("version", { $0.version }, { $0.version = $1 }),
    ]

    /// Appends the line as one JSON object (no newline) to `bytes`.
    package func write(to bytes: inout [UInt8]) {
        var json = JSONObjectWriter()
        for field in Self.fields { field.write(self, &json) }
        json.finish(into: &bytes)
    }

    /// The line as text (no newline).
    package var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024) // a response line with a dozen headers fits
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A line read back from its JSON object; nil when it has no `event`, `task` and `time`. Fields
    /// this version does not know are ignored (a newer writer's additions).
    package init?(json value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        let object = Dictionary(members, uniquingKeysWith: { _, last in last })
        guard let event = object["event"]?.stringValue, let task = JSONReading.integer(object["task"]),
              let time = JSONReading.number(object["time"]) else { return nil }
        self.init(event: event, task: Int(task), time: time)
        for field in Self.fields {
            if let value = object[field.name], value != .null { field.read(value, &self) }
        }
    }

    /// A line read back from its text (parsed by `JSONParser`, whose numbers are exact: Foundation's
    /// `JSONSerialization` here reads `3.1990000000000003` as a different double).
    package init?(json data: Data) {
        guard let value = try? JSONValue(parsing: data) else { return nil }
        self.init(json: value)
    }
}

extension EventLineField {
    static func string(_ key: StaticString, _ get: @escaping @Sendable (EventLine) -> String?,
                       _ set: @escaping @Sendable (inout EventLine, String) -> Void) -> EventLineField {
        EventLineField(key, write: { line, json in get(line).map { json.string(key, $0) } },
                       read: { value, line in value.stringValue.map { set(&line, $0) } })
    }

    static func integer(_ key: StaticString, _ get: @escaping @Sendable (EventLine) -> Int64?,
                        _ set: @escaping @Sendable (inout EventLine, Int64) -> Void) -> EventLineField {
        EventLineField(key, write: { line, json in get(line).map { json.number(key, $0) } },
                       read: { value, line in JSONReading.integer(value).map { set(&line, $0) } })
    }

    static func number(_ key: StaticString, _ get: @escaping @Sendable (EventLine) -> Double?,
                       _ set: @escaping @Sendable (inout EventLine, Double) -> Void) -> EventLineField {
        EventLineField(key, write: { line, json in get(line).map { json.number(key, $0) } },
                       read: { value, line in JSONReading.number(value).map { set(&line, $0) } })
    }

    static func flag(_ key: StaticString, _ get: @escaping @Sendable (EventLine) -> Bool?,
                     _ set: @escaping @Sendable (inout EventLine, Bool) -> Void) -> EventLineField {
        EventLineField(key, write: { line, json in get(line).map { json.bool(key, $0) } },
                       read: { value, line in JSONReading.bool(value).map { set(&line, $0) } })
    }

    /// Bytes as base64 text.
    static func base64(_ key: StaticString, _ get: @escaping @Sendable (EventLine) -> Data?,
                       _ set: @escaping @Sendable (inout EventLine, Data) -> Void) -> EventLineField {
        EventLineField(key, write: { line, json in get(line).map { json.string(key, $0.base64EncodedString()) } },
                       read: { value, line in value.stringValue.flatMap { Data(base64Encoded: $0) }.map { set(&line, $0) } })
    }
}

/// Reading the values of a parsed line.
enum JSONReading {
    static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let text)? = value else { return nil }
        if let int = Int64(text) { return int }
        guard let double = Double(text), double == double.rounded(), double.magnitude < 9.2e18 else { return nil }
        return Int64(double)
    }

    static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let text)? = value else { return nil }
        return Double(text)
    }

    static func bool(_ value: JSONValue?) -> Bool? {
        guard case .bool(let bool)? = value else { return nil }
        return bool
    }

    /// `[[name, value], …]`; a pair that is not two strings is skipped.
    static func headers(_ value: JSONValue) -> [HTTPHeader]? {
        guard case .array(let pairs) = value else { return nil }
        return pairs.compactMap { pair in
            guard case .array(let parts) = pair, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue else { return nil }
            return HTTPHeader(name: name, value: value)
        }
    }

    static func timings(_ value: JSONValue) -> PhaseTimings? {
        guard case .object = value else { return nil }
        func ms(_ key: String) -> Double { number(value[key]) ?? -1 }
        var timings = PhaseTimings(dns: ms("dns"), connect: ms("connect"), tls: ms("tls"), send: ms("send"), wait: ms("wait"),
                                   receive: ms("receive"), total: ms("total"))
        timings.redirect = ms("redirect")
        return timings
    }

    static func options(_ value: JSONValue) -> HTTPRequest.Options? {
        guard case .object = value else { return nil }
        var omitted: [String]?
        if case .array(let names)? = value["omittedHeaders"] { omitted = names.compactMap(\.stringValue) }
        return HTTPRequest.Options(timeout: number(value["timeout"]), followRedirects: bool(value["followRedirects"]),
                                   maxRedirects: integer(value["maxRedirects"]).map(Int.init), trustedRedirects: bool(value["trustedRedirects"]),
                                   insecure: bool(value["insecure"]), compressed: bool(value["compressed"]), omittedHeaders: omitted,
                                   httpVersion: value["httpVersion"]?.stringValue.flatMap(HTTPRequest.HTTPVersion.init(rawValue:)))
    }
}
