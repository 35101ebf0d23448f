import FoundationEssentials

/// Where reqtop keeps what outlives a process (prompt history, session journals):
/// `$XDG_STATE_HOME/reqtop`, else `~/.local/state/reqtop`.
package enum StateDirectory {
    package static var url: URL {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("reqtop")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/reqtop")
    }
}
