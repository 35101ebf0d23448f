import FoundationEssentials

/// Bodies that a written list cannot hold inline (binary bytes, text a parser would change, a NUL
/// in a shell argument). Each gets a file named `<prefix>-<n>.bin`; the list refers to it by that
/// name (`< file` in `.http`, `--data-binary @file` in curl), so an absolute prefix reads back from
/// anywhere.
public struct BodyFiles: Sendable {
    /// The names the list refers to, with their contents, in order.
    public private(set) var files: [(name: String, data: Data)] = []
    let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// Registers `data` and returns the name to refer to it by.
    mutating func add(_ data: Data) -> String {
        let name = "\(prefix)-\(files.count + 1).bin"
        files.append((name, data))
        return name
    }
}

/// A converted list: the text of the list, and the body files it refers to.
public struct ConvertedList: Sendable {
    public var data: Data
    public var bodyFiles: BodyFiles
    public var warnings: [RequestListWarning]
}
