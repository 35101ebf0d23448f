/// HAR and curl have no `{{variables}}`: a `{{…}}` in a URL or header of theirs is sent as written
/// (what the list says), but it is almost always a placeholder someone forgot to fill (copied from
/// a Postman or `.http` example), so each such request gets a warning saying so.
enum LiteralPlaceholders {
    static func warnings(for specs: [RequestSpec], format: RequestListFormat) -> [RequestListWarning] {
        specs.compactMap { spec in
            var found: (place: String, text: String)?
            if let range = RequestResolver.placeholder(in: spec.url) {
                found = ("URL", String(spec.url[range]))
            } else if let header = spec.headers.first(where: { RequestResolver.placeholder(in: "\($0.name): \($0.value)") != nil }) {
                let line = "\(header.name): \(header.value)"
                found = ("\(header.name) header", String(line[RequestResolver.placeholder(in: line)!]))
            }
            guard let found else { return nil }
            return RequestListWarning(location: spec.location,
                                      message: "\(quoting: found.text) in the \(found.place) is sent as written: \(format.rawValue) has no "
                                          + "{{variables}} (a placeholder left unfilled?)")
        }
    }
}
