import Foundation

/// The built-in `{{$…}}` variables; each occurrence gets a fresh value.
enum DynamicVariable: Sendable, Hashable {
    case uuid
    case timestamp
    case isoTimestamp
    /// `{{$randomInt}}` (0..<1000) or `{{$randomInt min max}}` (min..<max).
    case randomInt(lower: Int, upper: Int)

    init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let head = words.first else { return nil }
        switch head {
        case "$uuid", "$guid", "$random.uuid":
            guard words.count == 1 else { return nil }
            self = .uuid
        case "$timestamp":
            guard words.count == 1 else { return nil }
            self = .timestamp
        case "$isoTimestamp":
            guard words.count == 1 else { return nil }
            self = .isoTimestamp
        case "$randomInt", "$random.integer":
            if words.count == 1 { self = .randomInt(lower: 0, upper: 1000); return }
            guard words.count == 3, let lower = Int(words[1]), let upper = Int(words[2]), lower < upper else { return nil }
            self = .randomInt(lower: lower, upper: upper)
        default:
            return nil
        }
    }

    /// A fresh value.
    func generate(now: Date = Date()) -> String {
        switch self {
        case .uuid:
            return UUID().uuidString.lowercased()
        case .timestamp:
            return String(Int(now.timeIntervalSince1970))
        case .isoTimestamp:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: now)
        case let .randomInt(lower, upper):
            return String(Int.random(in: lower..<upper))
        }
    }
}
