/// A one-row progress bar with ⅛-cell resolution and an optional label after it.
public struct Gauge: Widget {
    /// Progress from 0 to 1 (clamped).
    public var ratio: Double
    public var label: String?
    public var barStyle: Style
    public var labelStyle: Style

    /// Partial blocks for 1/8 … 7/8 of a cell.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public init(ratio: Double, label: String? = nil, barStyle: Style = .plain, labelStyle: Style = .plain) {
        self.ratio = ratio.isNaN ? 0 : min(1, max(0, ratio))
        self.label = label
        self.barStyle = barStyle
        self.labelStyle = labelStyle
    }

    /// The bar alone as text, `width` columns wide.
    public static func bar(ratio: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = ratio.isNaN ? 0 : min(1, max(0, ratio))
        let eighthsTotal = Int((clamped * Double(width * 8)).rounded(.down))
        let full = eighthsTotal / 8, partial = eighthsTotal % 8
        var text = String(repeating: "█", count: full)
        if partial > 0 { text.append(eighths[partial - 1]) }
        return text + String(repeating: " ", count: width - full - (partial > 0 ? 1 : 0))
    }

    public func render(area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        var barWidth = area.width
        if let label = label {
            let labelWidth = min(TextWidth.of(Sanitizer.singleLine(label)), max(0, area.width - 2))
            barWidth = area.width - labelWidth - (labelWidth > 0 ? 1 : 0)
            if labelWidth > 0 {
                buffer.setString(x: area.x + barWidth + 1, y: area.y, label, style: labelStyle, maxWidth: labelWidth)
            }
        }
        buffer.setString(x: area.x, y: area.y, Gauge.bar(ratio: ratio, width: barWidth), style: barStyle, maxWidth: barWidth)
    }
}
