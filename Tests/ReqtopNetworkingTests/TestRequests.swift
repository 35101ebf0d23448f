import Foundation
import ReqtopNetworking

extension HTTPRequest {
    /// A request to a test server's URL.
    init(_ url: URL, method: String = "GET", headers: [HTTPHeader] = [], body: Data? = nil, options: Options = Options()) {
        self.init(method: method, url: HTTPURL(string: url.absoluteString)!, headers: headers,
                  body: body.map { .data($0) } ?? .none, options: options)
    }
}
