/// Reads the part of a recorded response that a reference names.
enum ResponseExtractor {
    struct Failure: Error { var message: String }

    static func extract(_ ref: ResponseReference, from response: RecordedResponse) throws(Failure) -> String {
        switch ref.part {
        case .status:
            return String(response.status)
        case let .header(name):
            guard let value = response.header(named: name) else {
                throw Failure(message: "the response of \(quoting: ref.requestName) has no header \(quoting: name)")
            }
            return value
        case let .cookie(name):
            // The last `Set-Cookie` that sets it wins, as in a cookie jar.
            let cookies = response.headers.filter { HTTPHeader.namesMatch($0.name, "Set-Cookie") }.map { SetCookie(parsing: $0.value) }
            guard let value = cookies.last(where: { $0.name == name })?.value else {
                throw Failure(message: "the response of \(quoting: ref.requestName) sets no cookie \(quoting: name)")
            }
            return value
        case .body where response.bodyOmitted != nil:
            throw Failure(message: "the body of the response of \(quoting: ref.requestName) cannot be read: \(response.bodyOmitted!)")
        case .body(nil):
            return String(decoding: response.body, as: UTF8.self)
        case let .body(path?):
            let json: JSONValue
            do {
                json = try JSONParser.parse(String(decoding: response.body, as: UTF8.self))
            } catch {
                throw Failure(message: "the body of the response of \(quoting: ref.requestName) is not JSON (\(error.message) at line \(error.line)), so \(path) cannot be read")
            }
            guard let value = path.evaluate(json) else {
                throw Failure(message: "no value at \(path) in the JSON body of the response of \(quoting: ref.requestName)")
            }
            return value.substitutionText
        }
    }
}
