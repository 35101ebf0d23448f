/// Text attributes a cell can carry.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = Modifiers(rawValue: 1 << 0)
    public static let dim = Modifiers(rawValue: 1 << 1)
    public static let reverse = Modifiers(rawValue: 1 << 2)
    public static let underline = Modifiers(rawValue: 1 << 3)
}

/// Foreground, background and modifiers of a cell.
public struct Style: Hashable, Sendable {
    public var fg: Color
    public var bg: Color
    public var modifiers: Modifiers

    public init(fg: Color = .default, bg: Color = .default, modifiers: Modifiers = []) {
        self.fg = fg
        self.bg = bg
        self.modifiers = modifiers
    }

    /// The terminal's default look.
    public static let plain = Style()

    public func fg(_ color: Color) -> Style { var s = self; s.fg = color; return s }
    public func bg(_ color: Color) -> Style { var s = self; s.bg = color; return s }
    public func adding(_ modifiers: Modifiers) -> Style { var s = self; s.modifiers.formUnion(modifiers); return s }
    public var bold: Style { adding(.bold) }
    public var dim: Style { adding(.dim) }
    public var reversed: Style { adding(.reverse) }
    public var underlined: Style { adding(.underline) }

    /// This style with `other` laid over it: non-default colours of `other` win, modifiers are combined.
    public func patched(with other: Style) -> Style {
        Style(
            fg: other.fg == .default ? fg : other.fg,
            bg: other.bg == .default ? bg : other.bg,
            modifiers: modifiers.union(other.modifiers)
        )
    }
}
