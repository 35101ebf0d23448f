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

    /// Reads every key waiting on stdin (curses is in no-delay mode).
    static func readPending() -> [Key] {
        var keys: [Key] = []
        let codeYes = cncurses_key_code_yes()
        while true {
            var code: UInt32 = 0
            let rc = cncurses_get_key(&code)
            if rc == ERR { break }
            if let key = decode(isFunctionKey: rc == codeYes, code: code) { keys.append(key) }
        }
        return keys
    }
}
