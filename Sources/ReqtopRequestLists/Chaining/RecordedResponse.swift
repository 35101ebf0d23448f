import FoundationEssentials

/// The response of a completed named request, recorded for `{{name.response…}}` references.
public struct RecordedResponse: Sendable, Hashable {
    public var status: Int
    /// Header fields in order received.
    public var headers: [HTTPHeader]
    public var body: Data
    /// Why the body is not here for later requests to read (it was too large to keep), or nil.
    public var bodyOmitted: String?

    public init(status: Int, headers: [HTTPHeader], body: Data, bodyOmitted: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyOmitted = bodyOmitted
    }

    /// The first header with this name, case-insensitively.
    public func header(named name: String) -> String? { headers.value(for: name) }
}
