/// What one `Terminal.draw` sent to the backend.
public struct DrawReport: Hashable, Sendable {
    /// Cells handed to the backend.
    public var cellsWritten: Int
    /// True when the whole screen was repainted (first frame, resize, `invalidate()`).
    public var fullRedraw: Bool
}

/// Keeps the last frame and the next one, diffs them and sends only the changes to a backend.
///
/// Confined to one thread (the UI loop's).
public final class Terminal<B: Backend> {
    public let backend: B
    private var previous: Buffer
    private var needsFullRedraw = true
    private var cursorVisible: Bool?

    public init(backend: B) {
        self.backend = backend
        let size = backend.size()
        previous = Buffer(width: size.width, height: size.height)
    }

    /// The current screen size as a rectangle.
    public var area: Rect { previous.area }

    /// Forgets the last frame: the next `draw` clears the screen and repaints every cell.
    public func invalidate() { needsFullRedraw = true }

    /// Renders a frame with `render` and sends the cells that changed since the last frame.
    /// The screen size is read from the backend first; a new size causes a full redraw.
    @discardableResult
    public func draw(_ render: (inout Frame) -> Void) -> DrawReport {
        let size = backend.size()
        if size.width != previous.width || size.height != previous.height {
            previous = Buffer(width: size.width, height: size.height)
            needsFullRedraw = true
        }
        var frame = Frame(buffer: Buffer(width: size.width, height: size.height))
        render(&frame)
        let full = needsFullRedraw
        let changes: [CellChange]
        if full {
            backend.clear()
            changes = BufferDiff.changes(from: Buffer(width: 0, height: 0), to: frame.buffer)
        } else {
            changes = BufferDiff.changes(from: previous, to: frame.buffer)
        }
        if !changes.isEmpty { backend.draw(changes) }
        if let cursor = frame.cursor {
            backend.setCursor(x: cursor.x, y: cursor.y)
            if cursorVisible != true || full { backend.showCursor(); cursorVisible = true }
        } else if cursorVisible != false || full {
            backend.hideCursor()
            cursorVisible = false
        }
        backend.flush()
        previous = frame.buffer
        needsFullRedraw = false
        return DrawReport(cellsWritten: changes.count, fullRedraw: full)
    }
}
