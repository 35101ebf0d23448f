import FoundationEssentials

/// Writes resolved requests as a Postman collection v2.1 (`reqtop convert --to postman`): one item
/// each, named as the list names it (else `METHOD URL`), its header fields in order, its URL as
/// written and its body exactly: raw text, or a body file (`"mode": "file"`) for bytes that are
/// not UTF-8 text or text with `{{` (which Postman would read as a variable).
enum PostmanWriter {
    private struct Collection: Encodable {
        var info: Info
        var item: [Item]
    }

    private struct Info: Encodable {
        var name: String
        var schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
    }

    private struct Item: Encodable {
        var name: String
        var request: Request
    }

    private struct Request: Encodable {
        var method: String
        var header: [Header]
        var url: URL
        var body: Body?
    }

    private struct Header: Encodable {
        var key: String
        var value: String
    }

    private struct URL: Encodable {
        var raw: String
    }

    private struct Body: Encodable {
        var mode: String
        var raw: String?
        var file: File?
    }

    private struct File: Encodable {
        var src: String
    }

    static func data(for requests: [(request: HTTPRequest, name: String?)], collectionName: String, bodyFiles: inout BodyFiles,
                     redaction: Redaction?) throws -> Data {
        let items = requests.map { entry -> Item in
            let request = redaction?.request(entry.request) ?? entry.request
            var body: Body?
            switch request.body {
            case .none: body = nil
            case .file(let path): body = Body(mode: "file", file: File(src: path))
            case .data(let data) where data.isEmpty: body = nil
            case .data(let data):
                if let text = String(data: data, encoding: .utf8), !text.containsBytes("{{") {
                    body = Body(mode: "raw", raw: text)
                } else {
                    body = Body(mode: "file", file: File(src: bodyFiles.add(data)))
                }
            }
            return Item(name: entry.name ?? "\(request.method) \(request.url.absoluteString)",
                        request: Request(method: request.method, header: request.headers.map { Header(key: $0.name, value: $0.value) },
                                         url: URL(raw: request.url.absoluteString), body: body))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(Collection(info: Info(name: collectionName), item: items))
    }
}
