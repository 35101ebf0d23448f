extension String {
    /// One display column per character: tabs become spaces and control characters
    /// become `?`, so the caret line stays aligned and the terminal stays sane.
    func replacingTabsAndControls() -> String {
        String(map { ch -> Character in
            if ch == "\t" { return " " }
            if let scalar = ch.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F { return "?" }
            return ch
        })
    }
}
