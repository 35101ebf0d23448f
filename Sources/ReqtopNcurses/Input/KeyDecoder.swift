import CNcursesw
import ReqtopTerminalUI

/// Turns `wget_wch` results into `Key`s.
package enum KeyDecoder {
    /// The key for one `wget_wch` result, or `nil` for input reqtop ignores.
    /// - Parameters:
    ///   - isFunctionKey: true when `wget_wch` returned `KEY_CODE_YES`.
    ///   - code: the character or `KEY_*` code.
    package static func decode(isFunctionKey: Bool, code: UInt32) -> Key? {
        if isFunctionKey { return functionKey(Int32(bitPattern: code)) }
        switch code {
        case 10, 13: return .enter
        case 27: return .escape
        case 127, 8: return .backspace
        case 9: return .tab
        case 0: return .ctrl(" ")
        case 1...26: return .ctrl(Character(Unicode.Scalar(code + 96)!))
        case 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .char(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case cncurses_key_up(): return .up
        case cncurses_key_down(): return .down
        case cncurses_key_left(): return .left
        case cncurses_key_right(): return .right
        case cncurses_key_ppage(): return .pageUp
        case cncurses_key_npage(): return .pageDown
        case cncurses_key_home(): return .home
        case cncurses_key_end(): return .end
        case cncurses_key_enter(): return .enter
        case cncurses_key_backspace(): return .backspace
        case cncurses_key_dc(): return .delete
        case cncurses_key_btab(): return .backTab
        case cncurses_key_resize(): return .resize
        default:
            for n in 1...12 where code == cncurses_key_f(Int32(n)) { return .function(n) }
            return nil
        }
    }

    /// The mouse event curses has for a `KEY_MOUSE`, if it is one reqtop uses.
    static func mouseEvent() -> Key? {
        var x: Int32 = 0, y: Int32 = 0, kind: Int32 = 0
        guard cncurses_get_mouse(&x, &y, &kind) == 0 else { return nil }
        let kinds: [Int32: MouseEvent.Kind] = [1: .click, 2: .doubleClick, 3: .wheelUp, 4: .wheelDown]
        return kinds[kind].map { .mouse(MouseEvent($0, x: Int(x), y: Int(y))) }
    }
}

/// Turns what `wget_wch` returns into keys, assembling bracketed pastes (`ESC[200~` … `ESC[201~`)
/// into one `.paste` — pasted text never acts as keys — and reading mouse events.
package struct InputDecoder {
    private static let pasteStart = Array("\u{1B}[200~".unicodeScalars.map(\.value))
    private static let pasteEnd = "\u{1B}[201~"
    /// A paste longer than this is cut (and says so): a prompt is not a file.
    package static let pasteLimit = 1 << 20

    /// Codes after an ESC that may be the start of a paste marker.
    private var pending: [UInt32] = []
    /// The paste being received, nil outside one.
    private var pasting: String.UnicodeScalarView?
    /// Characters of the paste so far (kept or not), and the last six, where the end marker shows up.
    private var pastedCount = 0
    private var tail: [UInt32] = []

    package init() {}

    /// The keys for one `wget_wch` result (none while a paste or a possible marker is incomplete).
    package mutating func feed(isFunctionKey: Bool, code: UInt32, mouse: () -> Key? = { nil }) -> [Key] {
        if pasting != nil {
            guard !isFunctionKey, let scalar = Unicode.Scalar(code) else { return [] }
            return appendToPaste(scalar == "\r" ? "\n" : scalar)
        }
        if isFunctionKey {
            let flushed = flush()
            if Int32(bitPattern: code) == cncurses_key_mouse() { return flushed + (mouse().map { [$0] } ?? []) }
            return flushed + (KeyDecoder.decode(isFunctionKey: true, code: code).map { [$0] } ?? [])
        }
        if pending.isEmpty {
            guard code == 27 else { return KeyDecoder.decode(isFunctionKey: false, code: code).map { [$0] } ?? [] }
            pending = [code]
            return []
        }
        pending.append(code)
        if pending == Self.pasteStart {
            pending = []
            pasting = String.UnicodeScalarView()
            pastedCount = 0
            tail = []
            return []
        }
        if Self.pasteStart.starts(with: pending) { return [] }
        return flush()
    }

    /// What is pending at the end of a read: an ESC that started no paste is the Escape key.
    package mutating func flush() -> [Key] {
        defer { pending = [] }
        return pending.compactMap { KeyDecoder.decode(isFunctionKey: false, code: $0) }
    }

    /// Adds one character to the paste (in place; past `pasteLimit` only counted), and ends the
    /// paste when the last six characters are the end marker. A cut paste ends with a line saying so.
    private mutating func appendToPaste(_ scalar: Unicode.Scalar) -> [Key] {
        pastedCount += 1
        if pastedCount <= Self.pasteLimit + Self.pasteEnd.unicodeScalars.count { pasting!.append(scalar) }
        tail.append(scalar.value)
        if tail.count > 6 { tail.removeFirst(tail.count - 6) }
        guard tail == Self.pasteEnd.unicodeScalars.map(\.value) else { return [] }
        var text = pasting!
        pasting = nil
        let kept = pastedCount <= text.count
        if kept { text.removeLast(6) } else if text.count > Self.pasteLimit { text.removeLast(text.count - Self.pasteLimit) }
        var body = String(text)
        if !kept { body += "\n[reqtop: the paste was cut at \(Self.pasteLimit) characters]" }
        return [.paste(body)]
    }

    /// Reads every key waiting on stdin (curses is in no-delay mode).
    mutating func readPending() -> [Key] {
        var keys: [Key] = []
        let codeYes = cncurses_key_code_yes()
        while true {
            var code: UInt32 = 0
            let rc = cncurses_get_key(&code)
            if rc == ERR { break }
            keys += feed(isFunctionKey: rc == codeYes, code: code, mouse: KeyDecoder.mouseEvent)
        }
        // An ESC with nothing after it in this read is the Escape key (a paste marker arrives whole).
        if pasting == nil { keys += flush() }
        return keys
    }
}
