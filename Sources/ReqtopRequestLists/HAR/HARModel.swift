/// The HAR 1.2 document model (http://www.softwareishard.com/blog/har-12-spec/).
///
/// Decoding is lenient about fields browsers and proxies leave out; encoding writes every
/// field the spec requires.
struct HARDocument: Codable {
    var log: HARLog
}

struct HARLog: Codable {
    var version: String?
    var creator: HARCreator?
    var entries: [HAREntry]
}

struct HARCreator: Codable {
    var name: String
    var version: String
}

struct HARCookie: Codable {
    var name: String
    var value: String
}

struct HARParam: Codable {
    var name: String
    var value: String?
    var fileName: String?
    var contentType: String?
}

struct HARPostData: Codable {
    var mimeType: String?
    var text: String?
    var params: [HARParam]?
    /// `base64` when `text` holds a binary body base64-encoded (HAR 1.2 has no field for it: a
    /// custom field, as the spec asks, mirroring `content.encoding`).
    var _encoding: String?
}

struct HARRequest: Codable {
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

struct HARContent: Codable {
    var size: Int?
    var mimeType: String?
    var text: String?
    var encoding: String?
}

struct HARResponse: Codable {
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

struct HARTimingsModel: Codable {
    var blocked: Double?
    var dns: Double?
    var connect: Double?
    var ssl: Double?
    var send: Double?
    var wait: Double?
    var receive: Double?
}

/// Always written as `{}`; whatever a HAR holds here is ignored on import.
struct HARCache: Codable {
    init() {}
    init(from decoder: Decoder) throws {}
}

struct HAREntry: Codable {
    var startedDateTime: String?
    var time: Double?
    var request: HARRequest
    var response: HARResponse?
    var cache: HARCache?
    var timings: HARTimingsModel?
    var serverIPAddress: String?

    init(startedDateTime: String?, time: Double?, request: HARRequest, response: HARResponse?, cache: HARCache?,
         timings: HARTimingsModel?, serverIPAddress: String?) {
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.cache = cache
        self.timings = timings
        self.serverIPAddress = serverIPAddress
    }

    /// Strict about the request (it is what gets replayed), lenient about everything else.
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        request = try container.decode(HARRequest.self, forKey: .request)
        startedDateTime = try? container.decodeIfPresent(String.self, forKey: .startedDateTime)
        time = try? container.decodeIfPresent(Double.self, forKey: .time)
        response = try? container.decodeIfPresent(HARResponse.self, forKey: .response)
        cache = HARCache()
        timings = try? container.decodeIfPresent(HARTimingsModel.self, forKey: .timings)
        serverIPAddress = try? container.decodeIfPresent(String.self, forKey: .serverIPAddress)
    }
}
