import FoundationEssentials
import ReqtopNetworking
import ReqtopRequestLists

/// What `--dry-run` prints: each request exactly as it will be sent — request line, every header
/// field in wire order, those the client adds by itself marked `# added`, then the body — or, for
/// a request that waits for another's response, the same with the values it waits for left as
/// `{{name.response…}}`, and what it waits for. A request that will not be sent is one line,
/// `### N — not sent: why`.
package enum DryRun {
    /// The text, and how many requests would not be sent (printed as `### N — not sent: why`, with
    /// no request line, so the reason cannot be read as a header field of a request).
    package static func text(for resolver: RequestResolver, configuration: SessionConfiguration) -> (text: String, notSent: Int) {
        var out = ""
        var notSentCount = 0
        let list = resolver.list
        for index in list.specs.indices {
            let spec = list.specs[index]
            let title = "### \(index + 1)" + (spec.name.map { " \($0)" } ?? "")
            let waitsFor = resolver.dependencies(of: index)
            if waitsFor.isEmpty {
                do throws(RequestListError) {
                    let request = try resolver.resolve(index)
                    out += title + "\n" + text(for: request, configuration: configuration) + "\n"
                } catch {
                    // A value only a script sets: shown as `{{name}}`, with the scripts that set it (a dry run runs none).
                    if error.needsRequestScript, resolver.scriptVariables == nil, let note = scriptNote(for: index, in: list),
                       let request = try? resolver.resolveKeepingResponseReferences(index) {
                        out += title + "\n" + text(for: request, configuration: configuration) + "# " + note + "\n\n"
                        continue
                    }
                    notSentCount += 1
                    let at = error.line > 0 ? " (\(error.file.lastPathComponent):\(error.line):\(error.column))" : ""
                    out += "\(title) — not sent: \(error.message)\(at)\n\n"
                }
                continue
            }
            out += title + "\n"
            if let request = try? resolver.resolveKeepingResponseReferences(index) {
                // Everything but the values it waits for, resolved: those stay `{{name.response…}}`.
                out += text(for: request, configuration: configuration)
            } else {
                out += "\(spec.method) \(spec.url)\n"
                for header in spec.headers { out += "\(header.name): \(header.value)\n" }
            }
            out += "# waits for the response of: \(waitsFor.sorted().joined(separator: ", "))\n\n"
        }
        return (out, notSentCount)
    }

    /// Which values of the request at `index` the list's scripts set when it runs, and where.
    static func scriptNote(for index: Int, in list: RequestList) -> String? {
        let spec = list.specs[index]
        let written = ([spec.url] + spec.headers.map(\.value) + [spec.body.flatMap { if case .text(let t) = $0 { t } else { nil } } ?? ""])
            .joined(separator: "\n")
        var notes: [String] = []
        for script in list.allScripts where script.isJavaScript {
            let names = script.setVariables.filter { written.containsBytes("{{\($0)}}") || written.containsBytes("{{ \($0) }}") }
            guard !names.isEmpty else { continue }
            let where_ = "\(script.location.file.lastPathComponent):\(script.location.line)"
            notes.append(names.map { "{{\($0)}}" }.joined(separator: ", ") + " from the script at " + where_)
        }
        guard !notes.isEmpty else { return nil }
        return "set by scripts when the list runs (a dry run runs none): " + notes.joined(separator: "; ")
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
        case .data(let data): out += "\n" + bodyText(data, contentType: request.headers.value(for: "Content-Type")) + "\n"
        case .file(let path): out += "\n< \(path)\n"
        }
        return out
    }

    /// A body as text when it is UTF-8; a multipart body part by part, each part's headers as
    /// they are and its content as text or `<N bytes of binary data>`; any other body as its size.
    static func bodyText(_ data: Data, contentType: String?) -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        guard let boundary = contentType.flatMap(multipartBoundary), !boundary.isEmpty else { return binary(data.count) }
        let bytes = [UInt8](data)
        let delimiter = Array("--\(boundary)".utf8)
        var starts: [Int] = []
        var index = 0
        while let found = bytes[index...].firstRange(of: delimiter) {
            starts.append(found.lowerBound)
            index = found.upperBound
        }
        guard !starts.isEmpty else { return binary(data.count) }
        var out = ""
        // The preamble, then each delimiter line with the part that follows it (its headers up to the
        // blank line, then its content up to the line break before the next delimiter).
        let pieces = zip([0] + starts, starts + [bytes.count]).filter { $0.0 < $0.1 }
        for (start, end) in pieces {
            let piece = bytes[start..<end]
            // The preamble is all content; a part without a blank line is all head.
            let headEnd = !piece.starts(with: delimiter) ? start
                : piece.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? piece.firstRange(of: Array("\n\n".utf8))?.upperBound ?? end
            let head = piece[..<headEnd]
            var content = piece[headEnd...]
            var lineBreak = ArraySlice<UInt8>()
            if end < bytes.count, content.hasSuffix("\r\n") { lineBreak = content.suffix(2); content = content.dropLast(2) }
            guard let headText = String(bytes: head, encoding: .utf8) else { out += binary(piece.count); continue }
            out += headText + (String(bytes: content, encoding: .utf8) ?? binary(content.count)) + String(decoding: lineBreak, as: UTF8.self)
        }
        return out
    }

    private static func binary(_ count: Int) -> String { "<\(count) bytes of binary data>" }

    /// The `boundary` parameter of a `multipart/…` content type, unquoted.
    private static func multipartBoundary(_ contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingWhitespace() }
        guard parameters.first?.lowercased().hasPrefix("multipart/") == true else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}

private extension ArraySlice<UInt8> {
    func hasSuffix(_ text: String) -> Bool { count >= text.utf8.count && suffix(text.utf8.count).elementsEqual(text.utf8) }
}
