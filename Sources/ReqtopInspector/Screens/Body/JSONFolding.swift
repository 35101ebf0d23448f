/// Folding of pretty-printed JSON lines (`Enter` or `space` in the Body tab's JSON view): a line
/// that opens an object or array (ends in `{` or `[`) folds down to one line, `"key": {…},`,
/// until it is opened again. Works on the lines themselves — the printer indents by two spaces and
/// strings are quoted, so a container's closing line is the next one at its indentation.
struct JSONFolding {
    /// Line indices (into the whole JSON view) of the folded openers.
    var folded: Set<Int> = []

    /// The index of the line closing the container `lines[index]` opens, nil when it opens none.
    static func closing(of index: Int, in lines: [String]) -> Int? {
        let line = lines[index]
        guard line.hasSuffix("{") || line.hasSuffix("[") else { return nil }
        let indent = line.prefix { $0 == " " }.count
        var i = index + 1
        while i < lines.count {
            let other = lines[i]
            let otherIndent = other.prefix { $0 == " " }.count
            if otherIndent == indent, let first = other.dropFirst(indent).first, first == "}" || first == "]" { return i }
            if otherIndent < indent { return nil }
            i += 1
        }
        return nil
    }

    /// The lines as shown, and for each shown line its index in `lines`.
    func shown(_ lines: [String]) -> (lines: [String], sources: [Int]) {
        guard !folded.isEmpty else { return (lines, Array(lines.indices)) }
        var shown: [String] = [], sources: [Int] = []
        var i = 0
        while i < lines.count {
            if folded.contains(i), let close = Self.closing(of: i, in: lines) {
                let closer = lines[close].drop { $0 == " " }
                shown.append(lines[i] + "…" + closer + "  (\(close - i - 1) line\(close - i - 1 == 1 ? "" : "s") folded)")
                sources.append(i)
                i = close + 1
            } else {
                shown.append(lines[i])
                sources.append(i)
                i += 1
            }
        }
        return (shown, sources)
    }

    /// Folds or unfolds the first container (below the document's own) at or below shown line
    /// `top`; returns what it did.
    mutating func toggle(atOrBelow top: Int, in lines: [String]) -> String {
        let (_, sources) = shown(lines)
        for row in min(max(0, top), sources.count)..<sources.count {
            let index = sources[row]
            if folded.remove(index) != nil { return "unfolded line \(row + 1)" }
            // The document's own braces (no indentation) are not a fold: everything would go.
            if lines[index].first != "{" && lines[index].first != "[", Self.closing(of: index, in: lines) != nil {
                folded.insert(index)
                return "folded line \(row + 1) (Enter or space again unfolds it)"
            }
        }
        return "nothing to fold below the top line"
    }
}
