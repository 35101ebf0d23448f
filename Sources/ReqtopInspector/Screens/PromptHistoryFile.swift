import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopTasks

/// The prompts' histories (↑/↓), kept between sessions in `<state>/prompt-history.json`, one list
/// per kind of prompt, newest last, at most `limit` each. A missing or unreadable file is an empty history.
package struct PromptHistoryFile: Sendable {
    package let url: URL
    static let limit = 100

    package init(url: URL = StateDirectory.url.appendingPathComponent("prompt-history.json")) {
        self.url = url
    }

    func load() -> [PromptKind: [String]] {
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONDecoder().decode([String: [String]].self, from: data) else { return [:] }
        var histories: [PromptKind: [String]] = [:]
        for kind in PromptKind.remembered { histories[kind] = object[kind.storageName] }
        return histories
    }

    func save(_ histories: [PromptKind: [String]]) throws {
        var object: [String: [String]] = [:]
        for kind in PromptKind.remembered { object[kind.storageName] = histories[kind].map { Array($0.suffix(Self.limit)) } }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(object).write(to: url, options: .atomic)
        // Typed headers and bodies can hold tokens: only this user reads them (as the journals).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}

extension PromptKind {
    /// The prompts whose history is kept (not the yes/no question).
    static let remembered: [PromptKind] = [.filter, .search, .harPath, .curlPath, .bodyPath, .newRequestLine, .newRequestHeader, .newRequestBody]

    var storageName: String {
        switch self {
        case .filter: "filter"
        case .search: "search"
        case .harPath: "har-path"
        case .curlPath: "curl-path"
        case .bodyPath: "body-path"
        case .newRequestLine: "new-request"
        case .newRequestHeader: "new-request-header"
        case .newRequestBody: "new-request-body"
        case .confirmQuit: "confirm-quit"
        }
    }
}

extension InspectorApp {
    /// Loads the prompts' histories kept by earlier sessions.
    package func loadPromptHistory(from file: PromptHistoryFile) {
        promptHistory = file.load()
    }

    /// Keeps the prompts' histories for the next session.
    package func savePromptHistory(to file: PromptHistoryFile) {
        try? file.save(promptHistory)
    }
}
