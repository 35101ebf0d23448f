import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A Postman environment export (`*.postman_environment.json`, `--env-file`): its enabled values,
/// and which of them are secrets (`"type": "secret"`, kept out of what leaves the process).
public struct PostmanEnvironment: Sendable {
    public var name: String?
    public var values: [String: String]
    public var secretValues: [String]

    /// Reads `path`; an error names the file, line and column.
    public static func load(path: String) throws(RequestListError) -> PostmanEnvironment {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RequestListError(file: path, line: 0, column: 0, message: "cannot read the environment file", lineText: "")
        }
        let text = String(decoding: data, as: UTF8.self)
        let json: LocatedJSON
        do {
            json = try JSONParser.parseLocated(text)
        } catch {
            throw RequestListError.json(error, text: text, file: path, what: "Postman environment")
        }
        guard let values = json["values"], case .array = values.value else {
            throw RequestListError(file: path, line: json.line, column: json.column,
                                   message: "not a Postman environment: it has no \"values\" list of {key, value}", lineText: "")
        }
        var environment = PostmanEnvironment(name: json["name"]?.value.stringValue, values: [:], secretValues: [])
        for entry in values.children where entry["enabled"]?.value != .bool(false) {
            guard let key = entry["key"]?.value.stringValue else { continue }
            let value = entry["value"]?.value.substitutionText ?? ""
            environment.values[key] = value
            if entry["type"]?.value.stringValue == "secret", !value.isEmpty { environment.secretValues.append(value) }
        }
        return environment
    }
}
