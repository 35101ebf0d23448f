import FoundationEssentials

/// Turns a finished response into a value. Runs off the engine thread.
public protocol ResponseSerializer: Sendable {
    associatedtype Value: Sendable
    /// A short name for events and logs (`raw`, `text`, `json`, …).
    var name: String { get }
    func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> Value
    /// False when `serialize` does not read the body's bytes (it passes on what the task kept, or
    /// nothing): it then runs on the completion queue, without a hop through the serialization queue.
    var readsBody: Bool { get }
}

extension ResponseSerializer {
    public var readsBody: Bool { true }
}

/// Why a serializer could not produce its value.
public struct SerializationError: Error, Sendable, CustomStringConvertible {
    public var serializer: String
    public var message: String
    public var description: String { "\(serializer) serializer: \(message)" }
}

/// The body as the task kept it — in memory, or the file it was spilled to — never read back:
/// memory stays flat whatever the body's size.
public struct ResponseBodySerializer: ResponseSerializer {
    public init() {}
    public var name: String { "body" }
    public var readsBody: Bool { false }
    public func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> ResponseBody? { body }
}

/// The body bytes as they arrived (an empty `Data` when there was no body). A body spilled to a
/// file is read back whole: for large bodies use `ResponseBodySerializer`.
public struct RawResponseSerializer: ResponseSerializer {
    public init() {}
    public var name: String { "raw" }
    public func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> Data {
        try body?.loadData() ?? Data()
    }
}

/// The body as text, decoded by the `charset` of `Content-Type` (UTF-8 when absent).
public struct TextResponseSerializer: ResponseSerializer {
    public init() {}
    public var name: String { "text" }
    public func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> String {
        let data = try body?.loadData() ?? Data()
        let charset = head.headers.value(for: "Content-Type")?
            .split(separator: ";").dropFirst()
            .map { $0.trimmingWhitespace().lowercased() }
            .first { $0.hasPrefix("charset=") }?.dropFirst("charset=".count)
        let encoding: String.Encoding = switch charset.map(String.init) {
        case "iso-8859-1", "latin1": .isoLatin1
        case "us-ascii", "ascii": .ascii
        case "utf-16": .utf16
        default: .utf8
        }
        guard let text = String(data: data, encoding: encoding) else {
            throw SerializationError(serializer: name, message: "body is not valid \(charset ?? "utf-8") text")
        }
        return text
    }
}

/// The body parsed as JSON.
public struct JSONResponseSerializer: ResponseSerializer {
    public init() {}
    public var name: String { "json" }
    public func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> JSONValue {
        let data = try body?.loadData() ?? Data()
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw SerializationError(serializer: name, message: "body is not JSON (\(error.readableDescription))")
        }
    }
}

/// The body decoded as `T` with a `JSONDecoder`.
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ResponseSerializer {
    public init() {}
    public var name: String { "decodable(\(T.self))" }
    public func serialize(head: HTTPResponseHead, body: ResponseBody?) throws -> T {
        let data = try body?.loadData() ?? Data()
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw SerializationError(serializer: name, message: "\(error)")
        }
    }
}
