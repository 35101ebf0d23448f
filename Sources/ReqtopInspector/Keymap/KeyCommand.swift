/// Everything a key can do in the inspector. Keys map to these through `Keymap`.
package enum KeyCommand: String, Sendable, CaseIterable {
    case moveUp, moveDown, pageUp, pageDown, top, bottom
    case openDetail, back, nextTab, previousTab
    case tab1, tab2, tab3, tab4, tab5, tab6, tab7, tab8, tab9
    case search, nextMatch, previousMatch, toggleWrap, scrollLeft, scrollRight, cycleBodyView
    case copyMenu, saveBody, diff, toggleFold
    case suspendResume, cancel, replay, replayFailed
    case filter, sort, reverseSort, follow, mark, clearMarks, toggleLog
    case saveHAR, exportCurl, newRequest, editRequest
    case help, quit
}

/// Where a binding applies.
package enum KeyContext: String, Sendable, CaseIterable {
    /// Everywhere outside prompts.
    case global
    /// The task table.
    case table
    /// The task detail screen.
    case detail
    /// The diff of two tasks.
    case diff
}
