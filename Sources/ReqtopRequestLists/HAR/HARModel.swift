/// The HAR 1.2 document model (http://www.softwareishard.com/blog/har-12-spec/).
///
/// Encoding writes every field the spec requires; importing reads only each entry's `request`
/// (`HARDecoding.swift`), so whatever else an entry holds never stops an import.
enum HAR {
    struct Document: Encodable {
        var log: Log
    }

    struct Log: Encodable {
        var version: String?
        var creator: Creator?
        var entries: [Entry]
    }

    struct Creator: Encodable {
        var name: String
        var version: String
    }

    struct Cookie: Encodable {
        var name: String
        var value: String
        var path: String?
        var domain: String?
        var expires: String?
        var httpOnly: Bool?
        var secure: Bool?
    }

    struct Param: Encodable {
        var name: String
        var value: String?
        var fileName: String?
        var contentType: String?
    }

    struct PostData: Encodable {
        var mimeType: String?
        var text: String?
        var params: [Param]?
        /// `base64` when `text` holds a binary body base64-encoded (HAR 1.2 has no field for it: a
        /// custom field, as the spec asks, mirroring `content.encoding`).
        var _encoding: String?
    }

    struct Request: Encodable {
        var method: String
        var url: String
        var httpVersion: String?
        var cookies: [Cookie]?
        var headers: [HTTPHeader]?
        var queryString: [HTTPHeader]?
        var postData: PostData?
        var headersSize: Int?
        var bodySize: Int?
    }

    struct Content: Encodable {
        var size: Int?
        var mimeType: String?
        var text: String?
        var encoding: String?
    }

    struct Response: Encodable {
        var status: Int?
        var statusText: String?
        var httpVersion: String?
        var cookies: [Cookie]?
        var headers: [HTTPHeader]?
        var content: Content?
        var redirectURL: String?
        var headersSize: Int?
        var bodySize: Int?
    }

    struct Timings: Encodable {
        var blocked: Double?
        var dns: Double?
        var connect: Double?
        var ssl: Double?
        var send: Double?
        var wait: Double?
        var receive: Double?
    }

    /// Always written as `{}`.
    struct Cache: Encodable {}

    struct Entry: Encodable {
        var startedDateTime: String?
        var time: Double?
        var request: Request
        var response: Response?
        var cache: Cache?
        var timings: Timings?
        var serverIPAddress: String?
        var connection: String?
        var comment: String?
        /// A custom field (HAR allows `_`-prefixed ones, as Chrome's `_error`): why the task did not complete.
        var _error: String?
        /// A custom field: the request list's script tests of this response (`client.test`), in order.
        var _tests: [Test]?
        /// A custom field: a streamed response's messages (server-sent events, NDJSON lines, JSON
        /// array elements), each as Chrome writes a WebSocket message in `_webSocketMessages`
        /// (`type`, `time`, `opcode`, `data`) plus what the stream said of it.
        var _streamMessages: [StreamMessage]?
        /// A WebSocket's messages both ways, as Chrome writes them (`_resourceType` `websocket`).
        var _webSocketMessages: [StreamMessage]?
        var _resourceType: String?
    }

    struct StreamMessage: Encodable {
        var type = "receive"
        /// Seconds since 1970, as Chrome's.
        var time: Double
        /// 1: text, as a WebSocket text frame.
        var opcode = 1
        var data: String
        var format: String
        var index: Int
        var size: Int
        var event: String?
        var id: String?
        var retry: Int?
        /// A WebSocket close frame's status code.
        var closeCode: Int?
        /// True when `data` is only the first of `size` bytes.
        var partial: Bool?
        /// True when the response ended inside the message.
        var incomplete: Bool?
    }

    struct Test: Encodable {
        var name: String
        var passed: Bool
        var message: String?
    }
}
