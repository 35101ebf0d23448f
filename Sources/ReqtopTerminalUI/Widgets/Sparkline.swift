/// A bar chart of recent values (rates), newest on the right, ▁…█ per row of height.
public struct Sparkline: Widget {
    public var values: [Double]
    /// The value drawn as a full bar; the largest value when `nil`.
    public var maximum: Double?
    public var style: Style

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public init(_ values: [Double], maximum: Double? = nil, style: Style = .plain) {
        self.values = values
        self.maximum = maximum
        self.style = style
    }

    public func render(area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let shown = values.suffix(area.width)
        let top = maximum ?? shown.max() ?? 0
        for (column, value) in shown.enumerated() {
            let eighths = top > 0 && value > 0 ? max(1, Int((min(value, top) / top * Double(area.height * 8)).rounded())) : 0
            for row in 0..<area.height {
                let level = eighths - row * 8
                let symbol: Character = level >= 8 ? "█" : level > 0 ? Sparkline.levels[level - 1] : " "
                buffer.setCell(x: area.x + column, y: area.bottom - 1 - row, Cell(String(symbol), style: style))
            }
        }
    }
}
