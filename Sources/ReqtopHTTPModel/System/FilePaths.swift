#if canImport(Glibc)
import Glibc
#endif

/// NSString's path methods on `String`, without Foundation: slash-separated paths taken apart and
/// joined as text (nothing touches the file system).
extension String {
    /// The path without trailing slashes (`/` stays `/`).
    private var droppingTrailingSlashes: Substring {
        var text = self[...]
        while text.count > 1, text.last == "/" { text = text.dropLast() }
        return text
    }

    /// `b` of `/a/b/`; `/` of `/`; empty for empty.
    public var lastPathComponent: String {
        let text = droppingTrailingSlashes
        guard text != "/" else { return "/" }
        guard let slash = text.lastIndex(of: "/") else { return String(text) }
        return String(text[text.index(after: slash)...])
    }

    /// `/a` of `/a/b`; `/` of `/a`; empty for `a`.
    public var deletingLastPathComponent: String {
        let text = droppingTrailingSlashes
        guard text != "/", let slash = text.lastIndex(of: "/") else { return text == "/" ? "/" : "" }
        var head = text[..<slash]
        while head.count > 1, head.last == "/" { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// The path and `component` joined by one slash (`a/b` of `a/` and `b`).
    public func appendingPathComponent(_ component: String) -> String {
        guard !isEmpty else { return component }
        guard !component.isEmpty else { return String(droppingTrailingSlashes) }
        let head = droppingTrailingSlashes, tail = component.drop { $0 == "/" }
        return head == "/" ? "/" + tail : head + "/" + tail
    }

    /// `http` of `/a/list.http`; empty when the last component has no extension (`.env` has none).
    public var pathExtension: String {
        let name = lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `/a/list` of `/a/list.http` (and `name` of `name.`).
    public var deletingPathExtension: String {
        let path = droppingTrailingSlashes
        let name = String(path).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return String(path) }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    /// The path with `~` expanded (from `home`), symbolic links resolved along the part of it that
    /// exists (so `..` after a link goes where the kernel would go), then repeated slashes, `.`
    /// components and the remaining `..` of an absolute path removed, no trailing slash: NSString's
    /// `standardizingPath` on Linux.
    public func standardizingPath(home: String?) -> String {
        var path = self
        if path == "~" || path.hasPrefix("~/"), let home, !home.isEmpty { path = home + path.dropFirst() }
        guard path.hasPrefix("/") else { return Self.lexicallyStandardized(path) }
        let parts = path.split(separator: "/")
        for kept in stride(from: parts.count, through: 1, by: -1) {
            let prefix = "/" + parts[..<kept].joined(separator: "/")
            guard let resolved = realpath(prefix, nil) else { continue }
            defer { free(resolved) }
            let rest = parts[kept...].joined(separator: "/")
            return Self.lexicallyStandardized(String(cString: resolved) + (rest.isEmpty ? "" : "/" + rest))
        }
        return Self.lexicallyStandardized(path)
    }

    /// Repeated slashes and `.` removed, `..` applied as text (for an absolute path; a relative one
    /// keeps a leading `..`).
    private static func lexicallyStandardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", absolute {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty && !path.isEmpty ? "." : joined)
    }
}
