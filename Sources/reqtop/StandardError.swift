import ReqtopInspector
import ReqtopTasks

/// Writes `text` to standard error (unbuffered).
func printToStandardError(_ text: String) {
    FileDescriptorSink.standardError.write(text.hasSuffix("\n") ? text : text + "\n")
}

/// Reports a usage error of `command` and returns exit code 2.
func usageFailure(_ command: String, _ error: UsageError) -> Int32 {
    printToStandardError("reqtop \(command): \(error.message)\nRun 'reqtop \(command) --help' for usage.")
    return 2
}
