import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopSync
import ReqtopTasks

/// Headless output formats (`--events`).
enum EventFormat: String, CaseIterable {
    case text, jsonl
}

/// What a headless run prints and writes.
struct HeadlessSettings {
    /// What HAR files, JSON Lines and copies hide (the command's policy).
    var secrets: SecretPolicy
    var format: EventFormat = .text
    var harPath: String?
    var failOnStatus = false
    /// `--keep-bodies DIR`: where the terminal UI's bodies go at the end (headless runs keep none).
    var keepBodiesPath: String?
    /// The terminal UI takes mouse clicks and the wheel (`--no-mouse` leaves the mouse to the terminal).
    var mouse = true
    /// The terminal UI journals its session (`--no-journal` turns it off).
    var journal = true
    /// `--report junit=FILE`, `--report tap=FILE`: the scripts' tests for CI, written at the end.
    var reports: [TestReportRequest] = []
    /// The lists' file names, naming the reports' suites.
    var listNames: [String] = []
}

/// Writes one `--report`; 1 when it cannot be written (said on stderr), else 0.
func write(_ report: TestReportRequest, results: [RunResult], lists: [String]) -> Int32 {
    let data = switch report.format {
    case .junit: TestReport.junit(results, lists: lists)
    case .tap: TestReport.tap(results)
    }
    do {
        try data.write(to: URL(fileURLWithPath: report.path))
        return 0
    } catch {
        printToStandardError("reqtop: cannot write the \(report.format.rawValue) report \(report.path): \(error.readableDescription)")
        return 1
    }
}

/// Runs `runner` without the terminal UI: prints events, writes `--har`, prints the summary and
/// returns the exit code. SIGINT/SIGTERM cancel the tasks in flight and end with 130; a second
/// signal exits at once.
func runHeadless(_ runner: RequestListRunner, settings: HeadlessSettings) -> Int32 {
    let bus = runner.manager.bus
    let stdout = FileDescriptorSink.standardOutput
    let stderr = FileDescriptorSink.standardError
    let recorder = settings.harPath.map { _ in HARRecorder(bus: bus, secrets: settings.secrets) }
    recorder?.start()
    // With --har the run is journaled as it goes: if the process is killed before it writes the HAR
    // (kill -9, a crash), at most the requests in flight are lost — `reqtop convert ID --to har`.
    let journal = settings.harPath != nil && settings.journal ? try? JournalWriter(bus: bus, source: "reqtop run (headless)") : nil
    if let journal {
        Journals.prune(keeping: journal.url)
        stderr.write("reqtop: journaling this run as \(journal.id) (if it is killed: reqtop convert \(journal.id) --to har)\n")
    }
    defer { journal?.close() }

    // SIGINT or SIGTERM cancels the run; a second one ends the process at once.
    let stop = StopSignalWaiter(secondSignalExitCode: 130)
    var interrupted = false

    // The events are printed on this thread, which only waits otherwise: woken when events start
    // coming, it prints every couple of milliseconds while they do (no printer thread, no hand-off per batch).
    var statusLine: LiveStatusLine?
    var textPrinter: TextEventPrinter?
    var jsonPrinter: JSONLinesPrinter?
    switch settings.format {
    case .text:
        if stderr.isTerminal { statusLine = LiveStatusLine(bus: bus, sink: stderr, total: runner.plannedCount) }
        textPrinter = TextEventPrinter(bus: bus, sink: stdout, statusLine: statusLine, wake: stop.wakeForEvents)
        runner.onNotSent = { [textPrinter] result in textPrinter?.printNotSent(result) }
    case .jsonl:
        jsonPrinter = JSONLinesPrinter(bus: bus, sink: stdout, secrets: settings.secrets, wake: stop.wakeForEvents)
        runner.onNotSent = { result in stderr.write(TextEventFormatter.line(forNotSent: result) + "\n") }
    }
    statusLine?.start()
    textPrinter?.start()
    jsonPrinter?.start()

    let outcome = Protected<RunOutcome?>(nil)
    // On the engine thread when the last task ends there: it only stores the outcome and wakes this thread.
    runner.start(onAnyThread: true) { result in
        outcome.withLock { $0 = result }
        stop.finish()
    }
    // Between prints this thread also resolves and creates the next requests ahead of their turn, so
    // the engine thread, which paces the run, only starts them (RunnerOptions.callerSubmitsAhead).
    stop.wait(gathering: headlessGatheringMilliseconds, deliver: {
        runner.submitAhead()
        return textPrinter?.deliverPending() ?? jsonPrinter?.deliverPending() ?? false
    }, onSignal: { _ in
        interrupted = true
        runner.cancelAll()
    })

    textPrinter?.stop()
    jsonPrinter?.stop()
    statusLine?.finish()
    var exitCode: Int32 = 0
    if let recorder, let path = settings.harPath {
        recorder.stop()
        do {
            try recorder.write(to: URL(fileURLWithPath: path))
        } catch {
            stderr.write("reqtop: cannot write the HAR file \(path): \(error.readableDescription)\n")
            exitCode = 1
        }
    }
    let summary = outcome.snapshot?.summary ?? RunSummary(results: [])
    (settings.format == .jsonl ? stderr : stdout).write(summary.text)
    for report in settings.reports { exitCode = max(exitCode, write(report, results: outcome.snapshot?.results ?? [], lists: settings.listNames)) }
    let code = summary.exitCode(failOnStatus: settings.failOnStatus, interrupted: interrupted)
    return code == 0 ? exitCode : code
}
