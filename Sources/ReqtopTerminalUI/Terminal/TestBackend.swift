/// An in-memory backend: the screen is a `Buffer`, read back as literal lines in tests.
public final class TestBackend: Backend {
    /// What the screen shows.
    public private(set) var buffer: Buffer
    /// Cells written before each flush, one entry per flush.
    public private(set) var cellsWrittenPerFlush: [Int] = []
    /// How many times `clear()` was called.
    public private(set) var clearCount = 0
    public private(set) var cursorVisible = true
    public private(set) var cursor: (x: Int, y: Int) = (0, 0)
    private var pending = 0

    public init(width: Int, height: Int) {
        buffer = Buffer(width: width, height: height)
    }

    /// The screen rows as text.
    public var lines: [String] { buffer.lines }

    /// Cells written before the last flush.
    public var lastFlushCellCount: Int { cellsWrittenPerFlush.last ?? 0 }

    /// Changes the screen size, as a terminal resize would.
    public func resize(width: Int, height: Int) {
        buffer = Buffer(width: width, height: height)
    }

    /// A readable description of how the screen differs from `expected`, or `nil` when it matches.
    public func mismatch(_ expected: [String]) -> String? {
        let actual = lines
        guard actual != expected else { return nil }
        var report = "screen differs (- expected, + actual):\n"
        for i in 0..<max(actual.count, expected.count) {
            let e = i < expected.count ? expected[i] : "<none>"
            let a = i < actual.count ? actual[i] : "<none>"
            report += e == a ? "  \"\(a)\"\n" : "- \"\(e)\"\n+ \"\(a)\"\n"
        }
        return report
    }

    public func size() -> (width: Int, height: Int) { (buffer.width, buffer.height) }

    public func draw(_ changes: [CellChange]) {
        for change in changes {
            buffer.setCell(x: change.x, y: change.y, change.cell)
            if change.cell.width == 2 {
                buffer.setCell(x: change.x + 1, y: change.y, Cell("", style: change.cell.style, isContinuation: true))
            }
        }
        pending += changes.count
    }

    public func clear() {
        buffer.reset()
        clearCount += 1
    }

    public func flush() {
        cellsWrittenPerFlush.append(pending)
        pending = 0
    }

    public func hideCursor() { cursorVisible = false }
    public func showCursor() { cursorVisible = true }
    public func setCursor(x: Int, y: Int) { cursor = (x, y) }
}
