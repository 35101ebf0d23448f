/// A search pattern for text views: case-insensitive unless it has a capital letter (smart case).
public struct TextSearch: Hashable, Sendable {
    public let pattern: String
    public let caseSensitive: Bool
    private let needle: [String]

    public init(_ pattern: String) {
        self.pattern = pattern
        let caseSensitive = pattern.contains { $0.isUppercase }
        self.caseSensitive = caseSensitive
        needle = pattern.map { caseSensitive ? String($0) : $0.lowercased() }
    }

    /// Where the pattern occurs in `line`, as character offsets, left to right, not overlapping.
    public func ranges(in line: String) -> [Range<Int>] {
        guard !needle.isEmpty else { return [] }
        let hay = line.map { caseSensitive ? String($0) : $0.lowercased() }
        var found: [Range<Int>] = []
        var start = 0
        while start + needle.count <= hay.count {
            if hay[start] == needle[0], hay[start..<start + needle.count].elementsEqual(needle) {
                found.append(start..<start + needle.count)
                start += needle.count
            } else {
                start += 1
            }
        }
        return found
    }

    /// The indices of the lines that contain the pattern.
    public func matchingLines(_ lines: [String]) -> [Int] {
        lines.indices.filter { !ranges(in: lines[$0]).isEmpty }
    }
}
