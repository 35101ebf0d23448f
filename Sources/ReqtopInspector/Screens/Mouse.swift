import ReqtopTerminalUI

/// Where things were drawn last frame, so a click can find them.
struct ClickTargets {
    /// The table's rows (below its header) and the first row shown.
    var tableRows = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The detail view's tab bar.
    var detailTabs = Rect(x: 0, y: 0, width: 0, height: 0)
}

extension InspectorApp {
    /// Click selects a row or a tab, double-click opens a row, the wheel scrolls (three lines a step).
    func handleMouse(_ event: MouseEvent) -> LoopAction {
        guard prompt == nil, !copyMenuOpen, !sortMenuOpen else { return .ignore }
        switch event.kind {
        case .wheelUp: return run(.moveUp, times: 3)
        case .wheelDown: return run(.moveDown, times: 3)
        case .click, .doubleClick:
            switch screen {
            case .main:
                let rows = clickTargets.tableRows
                guard rows.contains(x: event.x, y: event.y) else { return .ignore }
                let index = table.offset + (event.y - rows.y)
                guard index < listing.count else { return .ignore }
                follow = false
                table.select(index, rowCount: listing.count)
                anchor = selectedID
                return event.kind == .doubleClick ? run(.openDetail) : .redraw
            case .detail:
                let bar = clickTargets.detailTabs
                guard bar.contains(x: event.x, y: event.y) else { return .ignore }
                let tabs = DetailTab.allCases
                guard let index = Tabs(tabs.map(\.title), selected: 0).tab(atColumn: event.x, from: bar.x) else { return .ignore }
                detailTab = tabs[index]
                detailScroll = TextViewState()
                detailMatch = nil
                return .redraw
            case .help, .diff, .compose:
                return .ignore
            }
        }
    }

    private func run(_ command: KeyCommand, times: Int) -> LoopAction {
        if screen == .compose {
            composeScroll.offset = max(0, composeScroll.offset + (command == .moveUp ? -times : times))
            return .redraw
        }
        var action = LoopAction.ignore
        for _ in 0..<times where run(command) == .redraw { action = .redraw }
        return action
    }
}
