import FoundationEssentials

/// A GraphQL request written the JetBrains way (`GRAPHQL url`) or the REST Client way
/// (`X-REQUEST-TYPE: GraphQL`): the body is the query, optionally followed by a blank line and a
/// JSON object of variables. It is sent as a POST of `{"query": …, "variables": …}` with
/// `Content-Type: application/json`, as those clients send it — or, when the request says
/// `Content-Type: application/graphql`, as that: the query document alone.
struct GraphQLBody {
    /// The body to send: the JSON envelope, or the query document itself.
    let body: Data

    /// Why the request cannot be sent as written.
    struct Problem: Error { let message: String }

    /// Rewrites `method` and `headers` and returns the body when the request is GraphQL; nil otherwise.
    init?(method: inout String, headers: inout [HTTPHeader], body: HTTPRequest.Body) throws(Problem) {
        let byMethod = method.utf8.count == 7 && method.uppercased() == "GRAPHQL"
        let byHeader = headers.value(for: "X-REQUEST-TYPE")?.lowercased() == "graphql"
        guard byMethod || byHeader else { return nil }
        let text = String(decoding: body.data ?? Data(), as: UTF8.self)
        var query = text
        var variables: JSONValue?
        // The variables are the last blank-line-separated block, when it is a JSON object.
        if let split = text.lastByteRange(of: "\n\n"),
           let parsed = try? JSONParser.parse(String(text[split.upperBound...])), case .object = parsed {
            query = String(text[..<split.lowerBound])
            variables = parsed
        }
        let mediaType = headers.value(for: "Content-Type")?.split(separator: ";").first?.trimmingWhitespace().lowercased()
        if mediaType == "application/graphql" { // not `application/graphql+json`, which is the JSON envelope
            // The request's own type says the body is the query document itself.
            guard variables == nil else {
                throw Problem(message: "an application/graphql body is the query alone: its variables cannot go with it "
                              + "(without that Content-Type, the request goes as JSON with its variables)")
            }
            self.body = Data(query.trimmingWhitespaceAndNewlines().utf8)
            if byMethod { method = "POST" }
            headers.removeAll(named: "X-REQUEST-TYPE")
            return
        }
        var document = "{\"query\":" + JSONValue.string(query.trimmingWhitespaceAndNewlines()).jsonText
        if let variables { document += ",\"variables\":" + variables.jsonText }
        self.body = Data((document + "}").utf8)
        if byMethod { method = "POST" }
        headers.removeAll(named: "X-REQUEST-TYPE")
        if !headers.contains(name: "Content-Type") { headers.append(HTTPHeader(name: "Content-Type", value: "application/json")) }
    }
}
