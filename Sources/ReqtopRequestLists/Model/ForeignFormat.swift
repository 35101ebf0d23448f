import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Request-list formats reqtop recognizes but does not read yet (Bruno, Insomnia YAML, a
/// Postman environment or v1 collection… — Postman v2 collections and Insomnia v4 JSON exports are
/// read, `PostmanImporter`, `InsomniaImporter`):
/// a file in one of them is answered with what it is and what reqtop reads, not with the error of
/// the reader that happened to be tried ("not a HAR 1.2 archive", "'{' is not a URL").
enum ForeignFormat {
    static let readable = "reqtop reads .http/.rest files, HAR 1.2 archives, Postman collections (v2.0, v2.1), Insomnia v4 exports (JSON, YAML), Hurl files, Bruno collections (a folder with bruno.json, or a .bru file in it) and curl command lines"

    /// The error for a file that is one of these formats, or nil. JSON is looked at only through its
    /// top-level keys (`json`, already parsed by the HAR reader); text by extension and first lines.
    static func error(path: String, name: String, line: Int = 1, lineText: String = "") -> RequestListError {
        RequestListError(file: path, line: line, column: 1,
                         message: "this looks like \(name); \(readable) (a reader for it is not built yet)", lineText: lineText)
    }

    /// The name of the format of a parsed JSON document that is not a HAR, or nil.
    static func name(ofJSON json: JSONValue) -> String? {
        guard case .object = json else { return nil }
        if let info = json["info"], json["item"] != nil {
            let schema = info["schema"]?.stringValue ?? ""
            if schema.containsBytes("v2.1") { return "a Postman collection v2.1" }
            if schema.containsBytes("v2.0") { return "a Postman collection v2.0" }
            if schema.containsBytes("getpostman") || info["_postman_id"] != nil { return "a Postman collection" }
        }
        if json["_postman_variable_scope"] != nil || (json["values"] != nil && json["_postman_exported_using"] != nil) {
            return "a Postman environment"
        }
        if json["requests"] != nil, json["order"] != nil || json["folders"] != nil { return "a Postman collection v1" }
        if json["_type"]?.stringValue == "export" {
            return "an Insomnia export" + (json["__export_format"].map { " (format \($0.substitutionText))" } ?? "")
        }
        if json["clientName"]?.stringValue == "Thunder Client" { return "a Thunder Client collection" }
        if json["openapi"] != nil { return "an OpenAPI document" }
        if json["swagger"] != nil { return "a Swagger (OpenAPI 2) document" }
        return nil
    }

    /// The name and the line (1-based, with its text) that tell a text file is Bruno or an
    /// Insomnia/OpenAPI YAML export, or nil. A `.http`/`.rest` file is always `.http`.
    static func name(ofText text: String, pathExtension ext: String) -> (name: String, line: Int, text: String)? {
        switch ext.lowercased() {
        case "http", "rest", "har", "curl", "sh", "hurl": return nil
        default: break
        }
        var number = 0
        for raw in text.splitLines().prefix(64) {
            number += 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            // Bruno: every block is `name {` or `name:kind {` at the start of a line; the first is usually `meta {`.
            if line.wholeMatch(of: #/(meta|get|post|put|delete|patch|options|head|connect|trace|query|params(:[a-z]+)?|headers|auth(:[a-z0-9]+)?|body(:[a-z-]+)?|vars(:[a-z-]+)?|script(:[a-z-]+)?|tests|docs|assert) \{/#) != nil {
                return ("a Bruno request (.bru)", number, raw)
            }
            if line.hasPrefix("_type: export") || line.hasPrefix("type: collection.insomnia.rest") || line.hasPrefix("type: spec.insomnia.rest") {
                return ("an Insomnia export (YAML)", number, raw)
            }
            if line.hasPrefix("openapi:") || line.hasPrefix("swagger:") { return ("an OpenAPI document (YAML)", number, raw) }
            break
        }
        return nil
    }
}
