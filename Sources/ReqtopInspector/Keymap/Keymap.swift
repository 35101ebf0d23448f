import ReqtopTerminalUI
import ReqtopSession

/// One key binding: the key, the command it runs, where, and the help text `?` shows.
package struct KeyBinding: Sendable {
    package var key: Key
    package var command: Command
    package var context: KeyContext
    package var help: String
}

/// The inspector's keys, as data. The help screen and the hint line are generated from it.
package enum Keymap {
    package static let bindings: [KeyBinding] = [
        KeyBinding(key: .up, command: .moveUp, context: .global, help: "move up / scroll up"),
        KeyBinding(key: .char("k"), command: .moveUp, context: .global, help: "move up / scroll up"),
        KeyBinding(key: .down, command: .moveDown, context: .global, help: "move down / scroll down"),
        KeyBinding(key: .char("j"), command: .moveDown, context: .global, help: "move down / scroll down"),
        KeyBinding(key: .pageUp, command: .pageUp, context: .global, help: "page up"),
        KeyBinding(key: .pageDown, command: .pageDown, context: .global, help: "page down"),
        KeyBinding(key: .char("g"), command: .top, context: .global, help: "go to the first row"),
        KeyBinding(key: .home, command: .top, context: .global, help: "go to the first row"),
        KeyBinding(key: .char("G"), command: .bottom, context: .global, help: "go to the last row"),
        KeyBinding(key: .end, command: .bottom, context: .global, help: "go to the last row"),
        KeyBinding(key: .enter, command: .openDetail, context: .table, help: "open the selected task"),
        KeyBinding(key: .escape, command: .back, context: .global, help: "back / clear the filter"),
        KeyBinding(key: .tab, command: .nextTab, context: .detail, help: "next tab"),
        KeyBinding(key: .right, command: .nextTab, context: .detail, help: "next tab"),
        KeyBinding(key: .backTab, command: .previousTab, context: .detail, help: "previous tab"),
        KeyBinding(key: .left, command: .previousTab, context: .detail, help: "previous tab"),
        KeyBinding(key: .char("s"), command: .suspendResume, context: .global, help: "suspend / resume the task"),
        KeyBinding(key: .char(" "), command: .suspendResume, context: .table, help: "suspend / resume the task"),
        KeyBinding(key: .char("x"), command: .cancel, context: .global, help: "cancel the task"),
        KeyBinding(key: .char("r"), command: .replay, context: .global, help: "replay: send the same request again"),
        KeyBinding(key: .char("R"), command: .replayFailed, context: .global, help: "replay the marked tasks, or every failed one"),
        KeyBinding(key: .char("/"), command: .filter, context: .table, help: "filter: text, status:4xx, method:POST, state:failed, host:x, !term"),
        KeyBinding(key: .char("o"), command: .sort, context: .table, help: "sort by id → duration → size → status"),
        KeyBinding(key: .char("m"), command: .mark, context: .table, help: "mark / unmark the task (R and w then act on the marked ones)"),
        KeyBinding(key: .char("l"), command: .toggleLog, context: .table, help: "show / hide the event log"),
        KeyBinding(key: .char("w"), command: .saveHAR, context: .global, help: "save the session (or the marked tasks) as HAR"),
        KeyBinding(key: .char("c"), command: .exportCurl, context: .global, help: "export the task as a curl command"),
        KeyBinding(key: .char("n"), command: .newRequest, context: .global, help: "new request (METHOD URL, headers, body)"),
        KeyBinding(key: .char("e"), command: .editRequest, context: .global, help: "edit the request in $EDITOR and send it"),
        KeyBinding(key: .char("?"), command: .help, context: .global, help: "this help"),
        KeyBinding(key: .char("q"), command: .quit, context: .global, help: "quit (asks while tasks run)"),
    ]

    /// The command `key` runs in `context` (context bindings first, then global ones).
    package static func command(for key: Key, in context: KeyContext) -> Command? {
        bindings.first { $0.key == key && $0.context == context }?.command
            ?? bindings.first { $0.key == key && $0.context == .global }?.command
    }

    /// A short name for a key, as help and hints show it.
    package static func label(_ key: Key) -> String {
        switch key {
        case .char(" "): "space"
        case .char(let c): String(c)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .ctrl(let c): "^" + String(c).uppercased()
        case .resize: "resize"
        case .function(let n): "F\(n)"
        }
    }

    /// Help lines: every command with all its keys, grouped by context.
    package static func helpLines() -> [String] {
        var lines: [String] = []
        for context in KeyContext.allCases {
            let inContext = bindings.filter { $0.context == context }
            guard !inContext.isEmpty else { continue }
            lines.append(context == .global ? "Everywhere" : context == .table ? "Task table" : "Task detail")
            var seen: [Command] = []
            for binding in inContext where !seen.contains(binding.command) {
                seen.append(binding.command)
                let keys = inContext.filter { $0.command == binding.command }.map { label($0.key) }.joined(separator: " ")
                lines.append("  " + keys.padding(toLength: 14, withPad: " ", startingAt: 0) + binding.help)
            }
            lines.append("")
        }
        return lines
    }
}
