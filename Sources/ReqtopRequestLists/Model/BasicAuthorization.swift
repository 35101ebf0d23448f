import FoundationEssentials
import ReqtopHTTPModel

extension HTTPHeader {
    /// `Authorization: Basic …` for a user and password an importer read as separate fields (Bruno,
    /// Postman, Hurl): encoded now when both are literal, so a space or a colon in them stays theirs;
    /// with a `{{variable}}` in either, `Basic user:password`, which the resolver encodes as one pair
    /// once the variables are substituted.
    static func basicAuthorization(user: String, password: String) -> HTTPHeader {
        let credentials = "\(user):\(password)"
        if credentials.containsTemplateOpening { return HTTPHeader(name: "Authorization", value: "Basic " + credentials) }
        return HTTPHeader(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
    }
}
