import ReqtopNetworking
import ReqtopRequestLists

/// What `--dry-run` prints: each request exactly as it will be sent — request line, every header
/// field in wire order, those the client adds by itself marked `# added`, then the body — or, for
/// a request that waits for another's response, the same with the values it waits for left as
/// `{{name.response…}}`, and what it waits for.
package enum DryRun {
    package static func text(for resolver: RequestResolver, configuration: SessionConfiguration) -> String {
        var out = ""
        let list = resolver.list
        for index in list.specs.indices {
            let spec = list.specs[index]
            out += "### \(index + 1)" + (spec.name.map { " \($0)" } ?? "") + "\n"
            let waitsFor = resolver.dependencies(of: index)
            var notSent: String?
            if waitsFor.isEmpty {
                do throws(RequestListError) {
                    out += text(for: try resolver.resolve(index), configuration: configuration)
                    out += "\n"
                    continue
                } catch {
                    notSent = error.message
                }
            }
            if !waitsFor.isEmpty, let request = try? resolver.resolveKeepingResponseReferences(index) {
                // Everything but the values it waits for, resolved: those stay `{{name.response…}}`.
                out += text(for: request, configuration: configuration)
            } else {
                out += "\(spec.method) \(spec.url)\n"
                for header in spec.headers { out += "\(header.name): \(header.value)\n" }
            }
            if !waitsFor.isEmpty { out += "# waits for the response of: \(waitsFor.sorted().joined(separator: ", "))\n" }
            if let notSent { out += "# not sent: \(notSent)\n" }
            out += "\n"
        }
        return out
    }

    /// One request: `METHOD URL`, its header fields in wire order, a blank line and the body (text
    /// if UTF-8, else its size).
    package static func text(for request: HTTPRequest, configuration: SessionConfiguration) -> String {
        var out = "\(request.method) \(request.url.absoluteString)\n"
        for (header, added) in ClientHeaders.onTheWire(request, configuration: configuration) {
            out += "\(header.name): \(header.value)" + (added ? "   # added" : "") + "\n"
        }
        switch request.body {
        case .none: break
        case .data(let data) where data.isEmpty: break
        case .data(let data):
            if let text = String(data: data, encoding: .utf8) { out += "\n\(text)\n" } else { out += "\n<\(data.count) bytes of binary data>\n" }
        case .file(let path): out += "\n< \(path)\n"
        }
        return out
    }
}
