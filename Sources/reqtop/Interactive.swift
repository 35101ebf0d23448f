import ReqtopInspector

/// Runs a replay in the terminal UI and returns the exit code, or nil when the UI cannot run it
/// (the caller then runs headless). Swap this body for `runInteractive(manager:title:begin:)`
/// (InteractiveCommand.swift) starting `runner` in `begin`.
func runListInteractively(_ runner: RequestListRunner, settings: HeadlessSettings, title: String) -> Int32? {
    printToStandardError("interactive mode: not yet available, use --headless")
    return nil
}
