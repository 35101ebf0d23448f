/// The text, cursor and history of a single-line editor.
public struct PromptState: Hashable, Sendable {
    public private(set) var characters: [Character] = []
    /// Cursor position as a character index, 0...characters.count.
    public private(set) var cursor = 0
    public private(set) var history: [String]
    private var historyIndex: Int?
    private var draft: [Character] = []

    public init(text: String = "", history: [String] = []) {
        characters = Array(text)
        cursor = characters.count
        self.history = history
    }

    public var text: String { String(characters) }

    /// Applies one editing step.
    public mutating func apply(_ edit: PromptEdit) {
        switch edit {
        case .insert(let c):
            characters.insert(c, at: cursor)
            cursor += 1
        case .deleteBackward:
            if cursor > 0 { characters.remove(at: cursor - 1); cursor -= 1 }
        case .deleteForward:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .moveLeft: cursor = max(0, cursor - 1)
        case .moveRight: cursor = min(characters.count, cursor + 1)
        case .moveToStart: cursor = 0
        case .moveToEnd: cursor = characters.count
        case .killToEnd: characters.removeSubrange(cursor...)
        case .killToStart:
            characters.removeSubrange(..<cursor)
            cursor = 0
        case .deleteWordBackward:
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .historyPrevious:
            guard !history.isEmpty else { return }
            if historyIndex == nil { draft = characters }
            let index = max(0, (historyIndex ?? history.count) - 1)
            historyIndex = index
            setText(Array(history[index]))
        case .historyNext:
            guard let index = historyIndex else { return }
            if index + 1 < history.count {
                historyIndex = index + 1
                setText(Array(history[index + 1]))
            } else {
                historyIndex = nil
                setText(draft)
            }
        }
    }

    /// Inserts every character of `text` at the cursor.
    public mutating func insert(_ text: String) {
        for c in text { apply(.insert(c)) }
    }

    /// Returns the text, records it in the history (unless empty or a repeat) and clears the line.
    public mutating func submit() -> String {
        let line = text
        if !line.isEmpty, history.last != line { history.append(line) }
        historyIndex = nil
        draft = []
        setText([])
        return line
    }

    private mutating func setText(_ chars: [Character]) {
        characters = chars
        cursor = chars.count
    }
}
