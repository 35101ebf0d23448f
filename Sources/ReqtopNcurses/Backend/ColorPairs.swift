import CNcursesw
import ReqtopTerminalUI

/// Curses colour pairs, allocated the first time a foreground/background combination is drawn.
///
/// With fewer than 256 colours, colours fall back to the 8 basic ones; when colours are off
/// (`NO_COLOR`, or a terminal without colour) every style uses pair 0.
final class ColorPairs {
    private struct Key: Hashable { let fg: Int; let bg: Int }
    private var pairs: [Key: Int32] = [:]
    private var next: Int32 = 1
    private let enabled: Bool
    private let colors: Int
    private let limit: Int32

    init(enabled: Bool) {
        self.enabled = enabled
        colors = Int(cncurses_colors())
        limit = cncurses_color_pairs()
    }

    /// The pair number for `style`'s colours (0 for default/default or when out of pairs).
    func pair(for style: Style) -> Int32 {
        guard enabled else { return 0 }
        let key = Key(fg: number(style.fg), bg: number(style.bg))
        if key.fg == -1 && key.bg == -1 { return 0 }
        if let pair = pairs[key] { return pair }
        guard next < limit, cncurses_init_pair(next, Int32(key.fg), Int32(key.bg)) != ERR else { return 0 }
        pairs[key] = next
        next += 1
        return next - 1
    }

    private func number(_ color: Color) -> Int {
        if colors >= 256 { return color.paletteIndex ?? -1 }
        if colors >= 16, let index = color.paletteIndex, index < 16 { return index }
        return color.basicIndex ?? -1
    }
}
