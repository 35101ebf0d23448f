import ReqtopTerminalUI
import ReqtopTasks

/// One key binding: the key, the command it runs, where, and the help text `?` shows.
package struct KeyBinding: Sendable {
    package var key: Key
    package var command: KeyCommand
    package var context: KeyContext
    package var help: String
    /// What the hint line says for this binding, per screen (none: not in the hint line).
    package var hints: [HintScreen: String] = [:]
}

/// The screens whose bottom line lists key hints.
package enum HintScreen: Sendable, Hashable {
    case table, detail, help
}

/// The inspector's keys, as data. The help screen and the hint line are generated from it.
package enum Keymap {
    package static let bindings: [KeyBinding] = [
        KeyBinding(key: .up, command: .moveUp, context: .global, help: "move up / scroll up"),
        KeyBinding(key: .char("k"), command: .moveUp, context: .global, help: "move up / scroll up"),
        KeyBinding(key: .down, command: .moveDown, context: .global, help: "move down / scroll down",
                   hints: [.table: "move", .detail: "scroll", .help: "scroll"]),
        KeyBinding(key: .char("j"), command: .moveDown, context: .global, help: "move down / scroll down"),
        KeyBinding(key: .pageUp, command: .pageUp, context: .global, help: "page up"),
        KeyBinding(key: .pageDown, command: .pageDown, context: .global, help: "page down"),
        KeyBinding(key: .char("g"), command: .top, context: .global, help: "go to the first row"),
        KeyBinding(key: .home, command: .top, context: .global, help: "go to the first row"),
        KeyBinding(key: .char("G"), command: .bottom, context: .global, help: "go to the last row"),
        KeyBinding(key: .end, command: .bottom, context: .global, help: "go to the last row"),
        KeyBinding(key: .enter, command: .openDetail, context: .table, help: "open the selected task",
                   hints: [.table: "open"]),
        KeyBinding(key: .tab, command: .nextTab, context: .detail, help: "next tab",
                   hints: [.detail: "tab"]),
        KeyBinding(key: .backTab, command: .previousTab, context: .detail, help: "previous tab"),
        KeyBinding(key: .char("1"), command: .tab1, context: .detail, help: "Request tab"),
        KeyBinding(key: .char("2"), command: .tab2, context: .detail, help: "Response tab"),
        KeyBinding(key: .char("3"), command: .tab3, context: .detail, help: "Body tab"),
        KeyBinding(key: .char("4"), command: .tab4, context: .detail, help: "Timing tab"),
        KeyBinding(key: .char("5"), command: .tab5, context: .detail, help: "Events tab"),
        KeyBinding(key: .char("6"), command: .tab6, context: .detail, help: "Cookies tab"),
        KeyBinding(key: .char("7"), command: .tab7, context: .detail, help: "Tests tab (what the list's scripts checked and logged)"),
        KeyBinding(key: .char("8"), command: .tab8, context: .detail, help: "Stream tab (a streamed response's events, live)"),
        KeyBinding(key: .char("9"), command: .tab9, context: .detail, help: "Messages tab (a WebSocket's frames both ways)"),
        KeyBinding(key: .char("/"), command: .search, context: .detail, help: "search this tab (case-insensitive unless the pattern has a capital)",
                   hints: [.detail: "search"]),
        KeyBinding(key: .char("n"), command: .nextMatch, context: .detail, help: "next match"),
        KeyBinding(key: .char("N"), command: .previousMatch, context: .detail, help: "previous match"),
        KeyBinding(key: .char("z"), command: .toggleWrap, context: .detail, help: "wrap long lines on / off (on at first)",
                   hints: [.detail: "wrap"]),
        KeyBinding(key: .char("v"), command: .cycleBodyView, context: .detail, help: "body view: auto → json → html/xml → text → hex → raw",
                   hints: [.detail: "view"]),
        KeyBinding(key: .char("y"), command: .copyMenu, context: .global,
                   help: "copy, then: u URL  c curl  h httpie  q request head  r response head  b body",
                   hints: [.detail: "copy"]),
        KeyBinding(key: .char("b"), command: .saveBody, context: .detail, help: "save the response body to a file"),
        KeyBinding(key: .enter, command: .toggleFold, context: .detail,
                   help: "JSON view: fold / unfold the first object or array from the top line down"),
        KeyBinding(key: .char(" "), command: .toggleFold, context: .detail,
                   help: "JSON view: fold / unfold the first object or array from the top line down"),
        KeyBinding(key: .left, command: .scrollLeft, context: .detail, help: "scroll left (wrap off)"),
        KeyBinding(key: .right, command: .scrollRight, context: .detail, help: "scroll right (wrap off)"),
        KeyBinding(key: .char("s"), command: .suspendResume, context: .global, help: "suspend / resume the task",
                   hints: [.table: "suspend/resume", .detail: "suspend/resume"]),
        KeyBinding(key: .char(" "), command: .suspendResume, context: .table, help: "suspend / resume the task"),
        KeyBinding(key: .char("x"), command: .cancel, context: .global, help: "cancel the task",
                   hints: [.table: "cancel", .detail: "cancel"]),
        KeyBinding(key: .char("r"), command: .replay, context: .global, help: "replay: send the same request again",
                   hints: [.table: "replay", .detail: "replay"]),
        KeyBinding(key: .char("R"), command: .replayFailed, context: .global, help: "replay the marked tasks, or every failed one"),
        KeyBinding(key: .char("/"), command: .filter, context: .table, help: "filter: text, status:4xx, method:POST, state:failed, host:x, !term",
                   hints: [.table: "filter"]),
        KeyBinding(key: .char("o"), command: .sort, context: .table, help: "sort: the next key picks the column (menu on the bottom line)",
                   hints: [.table: "sort"]),
        KeyBinding(key: .char("O"), command: .reverseSort, context: .table, help: "reverse the sort order"),
        KeyBinding(key: .char("F"), command: .follow, context: .table, help: "follow the newest task on / off (moving turns it off)",
                   hints: [.table: "follow"]),
        KeyBinding(key: .char("m"), command: .mark, context: .table, help: "mark / unmark the task (R, w and d then act on the marked ones)"),
        KeyBinding(key: .char("U"), command: .clearMarks, context: .table, help: "clear every mark"),
        KeyBinding(key: .char("d"), command: .diff, context: .table,
                   help: "diff two tasks: the two marked, or the marked one and the selected one", hints: [.table: "diff"]),
        KeyBinding(key: .char("l"), command: .toggleLog, context: .table, help: "show / hide the event log",
                   hints: [.table: "log"]),
        KeyBinding(key: .char("w"), command: .saveHAR, context: .global, help: "save the session (or the marked tasks) as HAR",
                   hints: [.table: "save HAR"]),
        KeyBinding(key: .char("c"), command: .exportCurl, context: .global, help: "export the task as a curl command",
                   hints: [.detail: "curl"]),
        KeyBinding(key: .char("n"), command: .newRequest, context: .global, help: "new request (METHOD URL, headers, body)",
                   hints: [.table: "new"]),
        KeyBinding(key: .char("e"), command: .editRequest, context: .global, help: "edit the request in $EDITOR and send it"),
        KeyBinding(key: .escape, command: .back, context: .global, help: "back / clear the filter",
                   hints: [.detail: "back", .help: "back"]),
        KeyBinding(key: .char("?"), command: .help, context: .global, help: "this help"),
        KeyBinding(key: .char("q"), command: .quit, context: .global, help: "quit (asks while tasks run); on help and diff: back",
                   hints: [.table: "quit"]),
    ]

    /// The command `key` runs in `context` (context bindings first, then global ones).
    package static func command(for key: Key, in context: KeyContext) -> KeyCommand? {
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
        case .paste: "paste"
        case .mouse: "mouse"
        }
    }

    /// The hint line of `screen`: the hinted bindings in keymap order, as `key text`; up and down
    /// share one `↑↓`.
    package static func hintLine(for screen: HintScreen) -> String {
        bindings.compactMap { binding -> String? in
            guard let text = binding.hints[screen] else { return nil }
            return "\(binding.command == .moveDown ? "↑↓" : label(binding.key)) \(text)"
        }.joined(separator: "  ")
    }

    /// Help lines: every command with all its keys, grouped by context.
    package static func helpLines() -> [String] {
        var lines: [String] = []
        for context in KeyContext.allCases {
            let inContext = bindings.filter { $0.context == context }
            guard !inContext.isEmpty else { continue }
            let title = switch context {
            case .global: "Everywhere"
            case .table: "Task table"
            case .detail: "Task detail"
            case .diff: "Diff"
            }
            lines.append(title)
            var seen: [KeyCommand] = []
            for binding in inContext where !seen.contains(binding.command) {
                seen.append(binding.command)
                let keys = inContext.filter { $0.command == binding.command }.map { label($0.key) }.joined(separator: " ")
                lines.append("  " + keys.fitted(to: 14) + binding.help)
            }
            lines.append("")
        }
        return lines
    }
}
