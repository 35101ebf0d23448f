import ReqtopNetworking
import ReqtopTerminalUI
import ReqtopTasks

/// One screen of the inspector — the task table, a task's detail, a diff, help, a new request —
/// with its own state, key context, hints and drawing. The app keeps them in a stack (the table at
/// the bottom) and gives keys to the top one; what a screen does not handle, the app does (keys
/// that act on the selected task, prompts, quitting).
protocol InspectorScreen: AnyObject {
    /// Where its keys are looked up in the keymap.
    var keyContext: KeyContext { get }
    /// The key hints of the bottom line.
    var hints: String { get }
    /// The task that keys acting on "the selected task" (suspend, copy, replay) act on here.
    var selectedTask: TaskID? { get }
    /// `q` goes back from it (help, diff) instead of quitting.
    var quitGoesBack: Bool { get }
    func render(_ frame: inout Frame, area: Rect, app: InspectorApp, now: Double)
    /// A key before the keymap is asked; nil to let the keymap decide.
    func handle(_ key: Key, app: InspectorApp) -> LoopAction?
    /// A command of this screen; nil when it is not one (the app's own commands run then).
    func run(_ command: KeyCommand, app: InspectorApp) -> LoopAction?
    /// A click or double click where the screen was drawn.
    func click(_ event: MouseEvent, app: InspectorApp) -> LoopAction
}

extension InspectorScreen {
    var selectedTask: TaskID? { nil }
    var quitGoesBack: Bool { true }
    func handle(_ key: Key, app: InspectorApp) -> LoopAction? { nil }
    func click(_ event: MouseEvent, app: InspectorApp) -> LoopAction { .ignore }
}

/// What takes the next keys before any screen: a prompt on the bottom line, or a one-key menu
/// (`y` copy, `o` sort). The app holds at most one.
protocol InspectorOverlay: AnyObject {
    /// Handles a key; the overlay closes itself (`app.overlay = nil`) when it is done.
    func handle(_ key: Key, app: InspectorApp) -> LoopAction
    /// Draws it on the bottom line; false to leave the line to the app (a menu says its choices as the message).
    func renderBottomLine(_ frame: inout Frame, area: Rect) -> Bool
}

/// A screen of text lines that the movement keys scroll.
protocol ScrollingScreen: InspectorScreen {
    var scroll: TextViewState { get set }
}

extension ScrollingScreen {
    /// The movement commands, as scrolling (a page is the last height drawn).
    func scrollCommand(_ command: KeyCommand, page: Int) -> LoopAction? {
        let delta: Int
        switch command {
        case .moveUp: delta = -1
        case .moveDown: delta = 1
        case .pageUp: delta = -page
        case .pageDown: delta = page
        case .top: delta = -Int.max / 2
        case .bottom: delta = Int.max / 2
        default: return nil
        }
        scroll.offset = max(0, scroll.offset + delta)
        return .redraw
    }
}
