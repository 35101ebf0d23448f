import ReqtopTerminalUI

extension InspectorApp {
    /// Click selects a row or a tab, double-click opens a row, the wheel scrolls (three lines a step).
    func handleMouse(_ event: MouseEvent) -> LoopAction {
        guard overlay == nil else { return .ignore }
        switch event.kind {
        case .wheelUp, .wheelDown:
            var action = LoopAction.ignore
            for _ in 0..<3 where run(event.kind == .wheelUp ? .moveUp : .moveDown) == .redraw { action = .redraw }
            return action
        case .click, .doubleClick:
            return top.click(event, app: self)
        }
    }
}
