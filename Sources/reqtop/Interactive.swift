import ReqtopInspector

/// Runs `runner` in the terminal UI and returns the exit code, or nil when the UI is not available
/// (the caller then runs headless). The lead swaps this body for the real UI.
func runInteractive(_ runner: RequestListRunner, settings: HeadlessSettings) -> Int32? {
    printToStandardError("interactive mode: not yet available, use --headless")
    return nil
}
