/// The HAR 1.2 document model (http://www.softwareishard.com/blog/har-12-spec/).
///
/// Encoding writes every field the spec requires; importing reads only each entry's `request`
/// (`HARDecoding.swift`), so whatever else an entry holds never stops an import.
struct HARDocument: Encodable {
    var log: HARLog
}

struct HARLog: Encodable {
    var version: String?
    var creator: HARCreator?
    var entries: [HAREntry]
}

struct HARCreator: Encodable {
    var name: String
    var version: String
}

struct HARCookie: Encodable {
    var name: String
    var value: String
}

struct HARParam: Encodable {
    var name: String
    var value: String?
    var fileName: String?
    var contentType: String?
}

struct HARPostData: Encodable {
    var mimeType: String?
    var text: String?
    var params: [HARParam]?
    /// `base64` when `text` holds a binary body base64-encoded (HAR 1.2 has no field for it: a
    /// custom field, as the spec asks, mirroring `content.encoding`).
    var _encoding: String?
}

struct HARRequest: Encodable {
    var method: String
    var url: String
    var httpVersion: String?
    var cookies: [HARCookie]?
    var headers: [HTTPHeader]?
    var queryString: [HTTPHeader]?
    var postData: HARPostData?
    var headersSize: Int?
    var bodySize: Int?
}

struct HARContent: Encodable {
    var size: Int?
    var mimeType: String?
    var text: String?
    var encoding: String?
}

struct HARResponse: Encodable {
    var status: Int?
    var statusText: String?
    var httpVersion: String?
    var cookies: [HARCookie]?
    var headers: [HTTPHeader]?
    var content: HARContent?
    var redirectURL: String?
    var headersSize: Int?
    var bodySize: Int?
}

struct HARTimingsModel: Encodable {
    var blocked: Double?
    var dns: Double?
    var connect: Double?
    var ssl: Double?
    var send: Double?
    var wait: Double?
    var receive: Double?
}

/// Always written as `{}`.
struct HARCache: Encodable {}

struct HAREntry: Encodable {
    var startedDateTime: String?
    var time: Double?
    var request: HARRequest
    var response: HARResponse?
    var cache: HARCache?
    var timings: HARTimingsModel?
    var serverIPAddress: String?
}
