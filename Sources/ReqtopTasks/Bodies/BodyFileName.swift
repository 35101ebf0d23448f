import FoundationEssentials
import ReqtopNetworking

/// A file name for a saved body: the URL's last path segment, with an extension from the Content-Type when it has none.
package enum BodyFileName {
    package static func suggested(for record: TaskRecord) -> String {
        let last = record.url.path.split(separator: "/").last.map(String.init) ?? ""
        var name = last.filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
        if name.isEmpty || name.hasPrefix(".") { name = "body-\(record.id.rawValue)" }
        guard !name.containsBytes(".") else { return name }
        let mime = record.response?.mimeType?.lowercased() ?? ""
        let known: [(String, String)] = [("json", "json"), ("html", "html"), ("xml", "xml"), ("javascript", "js"), ("css", "css"),
                                         ("text/plain", "txt"), ("csv", "csv"), ("png", "png"), ("jpeg", "jpg"), ("gif", "gif"),
                                         ("svg", "svg"), ("webp", "webp"), ("pdf", "pdf"), ("zip", "zip"), ("gzip", "gz")]
        let ext = known.first { mime.contains($0.0) }?.1 ?? "bin"
        return "\(name).\(ext)"
    }
}
