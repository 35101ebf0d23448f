/// A terminal colour: the terminal's default, one of the 16 named colours, or an index into the 256-colour palette.
public enum Color: Hashable, Sendable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// An entry of the 256-colour palette (0–15 are the named colours, 16–231 a 6×6×6 cube, 232–255 greys).
    case indexed(UInt8)

    /// The palette index of this colour, or `nil` for the terminal's default.
    public var paletteIndex: Int? {
        switch self {
        case .default: return nil
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .brightBlack: return 8
        case .brightRed: return 9
        case .brightGreen: return 10
        case .brightYellow: return 11
        case .brightBlue: return 12
        case .brightMagenta: return 13
        case .brightCyan: return 14
        case .brightWhite: return 15
        case .indexed(let n): return Int(n)
        }
    }

    /// The nearest of the 8 basic colours (0–7), for terminals with fewer than 256 colours; `nil` for the default.
    public var basicIndex: Int? {
        guard let index = paletteIndex else { return nil }
        if index < 16 { return index % 8 }
        if index >= 232 { return index < 244 ? 0 : 7 }
        let cube = index - 16
        let r = cube / 36, g = (cube / 6) % 6, b = cube % 6
        let bits = (r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0)
        return bits
    }
}
