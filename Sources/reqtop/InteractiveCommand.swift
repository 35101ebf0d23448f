import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNcurses
import ReqtopNetworking
import ReqtopSync
import ReqtopTerminalUI
import ReqtopTasks

/// How an interactive session ended.
struct InteractiveOutcome {
    var reason: ExitReason
    var store: TaskStore
}

/// The session the terminal UI sends with when it is not replaying a list: like `reqtop run`,
/// compressed responses only when asked (`Accept-Encoding` is never added on its own), and a
/// live copy of each running body for the Body tab.
func inspectorConfiguration(firstTaskID: Int = 1) -> SessionConfiguration {
    var configuration = SessionConfiguration()
    configuration.compression = false
    configuration.liveBodyPreviewBytes = InspectorApp.liveBodyPreviewBytes
    configuration.firstTaskID = firstTaskID
    return configuration
}

/// How the terminal UI runs: the mouse, the session journal, and a saved session to show.
struct InteractiveOptions {
    /// What copies, exports and HAR files hide (the command's policy).
    var secrets: SecretPolicy
    var mouse = true
    /// Journal the session under `Journals.directory` (`--no-journal` turns it off).
    var journal = true
    /// `reqtop open`: the saved session's tasks, shown read-only before anything new.
    var saved: Recording?
    /// `reqtop attach`: another program's event stream (socket path, reconnect when it comes back).
    var attach: (path: String, follow: Bool)?
    /// Said on the bottom line when the session starts.
    var notice: String?
}

/// Runs the inspector TUI over `manager` until the user quits or a signal arrives.
/// `begin` starts the work (a replayed list, a first GET) once the store is observing the bus;
/// `stop` stops whatever would start more (a runner's queue) when the session ends, before every
/// unfinished task is cancelled. The store keeps what was recorded.
func runInteractive(manager: SessionManager, title: String, options: InteractiveOptions,
                    begin: (InspectorModel) -> Void, stop: () -> Void = {}) -> InteractiveOutcome {
    let loop = EventLoop(mouse: options.mouse)
    let store = TaskStore(onChange: { [dirty = loop.dirtyFlag] in dirty.markDirty() })
    if let saved = options.saved { store.apply(saved.events) }
    let subscription = store.observe(manager.bus)
    defer { subscription.stop() }
    let journal = options.journal ? startJournal(manager.bus, source: title) : nil
    defer { finishJournal(journal) }
    // An attached program's events go on the manager's bus, so the store and the journal see them
    // as they see reqtop's own (whose ids start far above the program's).
    let firstLocal = manager.configuration.firstTaskID
    let client = options.attach.map { attach in
        EventStreamClient(path: attach.path, follow: attach.follow, onStatus: { [dirty = loop.dirtyFlag, bus = manager.bus] status in
                              if case .disconnected = status { bus.post(unfinishedRemoteTasks(in: store, below: firstLocal)) }
                              dirty.markDirty()
                          },
                          onLine: { [bus = manager.bus] line in
                              if case .event(let event) = line { bus.post(event) }
                          })
    }
    let owner: (any TaskOwner)? = if let client {
        AttachedProgram(client: client, store: store, firstLocalID: firstLocal)
    } else {
        options.saved.map { saved in SavedTasks(lastSavedID: saved.events.map(\.task.rawValue).max() ?? 0) }
    }
    let model = InspectorModel(manager: manager, store: store, secrets: options.secrets, owner: owner)
    model.journal = journal
    model.runInTerminal = { arguments in loop.runProgram(arguments) }
    model.sendToTerminal = { sequence in loop.sendToTerminal(sequence) }
    model.onActivity = { [dirty = loop.dirtyFlag] in dirty.markDirty() }
    let app = InspectorApp(store: store, actions: model, title: title)
    if let client {
        // The header says whether the program is there: connected (and to what), or gone.
        app.titleStatus = {
            switch client.status {
            case .connecting: "connecting…"
            case .connected(let hello): "\(hello.process) pid \(hello.pid)" + (hello.controlAllowed ? "" : " (read-only)")
            case .disconnected: options.attach?.follow == true ? "DISCONNECTED, waiting" : "DISCONNECTED"
            }
        }
        client.start()
    }
    if let notes = options.saved?.notes, !notes.isEmpty { app.say(notes.joined(separator: "; ")) }
    if let notice = options.notice { app.say(notice) }
    let history = PromptHistoryFile()
    app.loadPromptHistory(from: history)
    defer { app.savePromptHistory(to: history) }
    let ticker = startTicker(loop.dirtyFlag, store: store)
    defer { ticker.cancel() }
    begin(model)

    let reason = loop.run(
        onKey: { key in app.handle(key) },
        onSignal: { signo in signo == SIGINT ? app.interrupt() : .quit }, // Ctrl-C first closes a prompt
        render: { frame in app.render(&frame) })
    stop()
    if let client {
        client.stop()
        manager.bus.post(unfinishedRemoteTasks(in: store, below: firstLocal)) // the program's tasks go on without us
    }
    cancelUnfinished(manager, store: store)
    model.waitForBackgroundWork()
    return InteractiveOutcome(reason: reason, store: store)
}

/// Ends, in reqtop's view, an attached program's tasks that had not ended: nothing more will come for them.
private func unfinishedRemoteTasks(in store: TaskStore, below firstLocal: Int) -> [TaskEvent] {
    let now = Date().timeIntervalSince1970
    return store.ids { id, state, _ in !state.isTerminal && id.rawValue < firstLocal }.compactMap(store.record).map { record in
        TaskEvent(task: record.id, time: now, kind: .failed(TaskFailure(
            error: TransferError(code: .other, message: "unknown: the app's event stream ended before this task did"),
            response: record.response, bytes: record.downloaded, timings: nil, redirects: record.redirects)))
    }
}

/// Opens the session's journal (pruning the oldest past the size limit); a journal that cannot be
/// written is reported, and the session goes on without one.
private func startJournal(_ bus: EventBus, source: String) -> JournalWriter? {
    do {
        let writer = try JournalWriter(bus: bus, source: source)
        Journals.prune(keeping: writer.url)
        return writer
    } catch {
        printToStandardError("reqtop: no session journal (\(error.readableDescription)); use --no-journal to silence this")
        return nil
    }
}

private func finishJournal(_ journal: JournalWriter?) {
    guard let journal else { return }
    journal.close()
    if let failure = journal.writeError {
        printToStandardError("reqtop: the session journal stopped early: \(failure)")
    }
    printToStandardError("reqtop: session journaled as \(journal.id) — reqtop open \(journal.id)")
}

/// Redraws a few times a second while tasks run, so durations and rates move; once a second when
/// idle, so a message on the bottom line goes when its time is up.
private func startTicker(_ dirty: DirtyFlag, store: TaskStore) -> DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "reqtop.ticker"))
    timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
    let ticks = Protected(0)
    timer.setEventHandler {
        let a = store.aggregates()
        let tick = ticks.withLock { $0 &+= 1; return $0 }
        if a.count(.running) + a.count(.suspended) > 0 || a.requestsPerSecond > 0 || tick % 4 == 0 { dirty.markDirty() }
    }
    timer.resume()
    return timer
}

/// Cancels what still runs and waits (briefly) until the store has seen every task end.
func cancelUnfinished(_ manager: SessionManager, store: TaskStore) {
    for id in store.ids(where: { _, state, _ in !state.isTerminal }) {
        try? manager.task(withID: id)?.cancel()
    }
    store.waitUntilSettled(timeout: 3)
}

/// Replays request lists in the terminal UI and returns the exit code: 130 after a signal,
/// otherwise 0 when every task completed (with `--fail-on-status`, also below HTTP 400), else 1.
/// `--har` is written with what finished, also after a signal.
func runListInteractively(_ runner: RequestListRunner, settings: HeadlessSettings, title: String, warnings: Int = 0) -> Int32 {
    let listOutcome = Protected<RunOutcome?>(nil)
    // The list's warnings went to stderr before the screen opened: say so, or they go unseen until the end.
    let notice = warnings == 0 ? nil
        : "\(warnings) warning\(warnings == 1 ? "" : "s") reading the list: on stderr, seen when you quit"
    // A request not sent has no row: the header counts it, the bottom line says why, stderr keeps them all.
    var notSent: NotSentRequests?
    let outcome = runInteractive(manager: runner.manager, title: title,
                                 options: InteractiveOptions(secrets: settings.secrets, mouse: settings.mouse, journal: settings.journal, notice: notice),
                                 begin: { session in
                                     session.queued = { runner.queuedCount }
                                     notSent = session.notSent
                                     runner.onNotSent = { [reported = session.notSent, redraw = session.onActivity] result in
                                         reported.add(TextEventFormatter.line(forNotSent: result))
                                         redraw?()
                                     }
                                     runner.start { result in listOutcome.withLock { $0 = result } }
                                 },
                                 stop: { runner.cancelAll() })
    for line in notSent?.lines ?? [] { printToStandardError(line) }
    let store = outcome.store
    var code: Int32 = 0
    // The list's own results (including requests never sent because a dependency failed), and
    // every task of the session (replays and new requests too).
    if let summary = listOutcome.snapshot?.summary {
        code = summary.exitCode(failOnStatus: settings.failOnStatus, interrupted: false) // 4: a script's test failed
    }
    if store.aggregates().count(.failed) + store.aggregates().count(.cancelled) > 0 { code = 1 }
    for report in settings.reports { code = max(code, write(report, results: listOutcome.snapshot?.results ?? [], lists: settings.listNames)) }
    if settings.failOnStatus, !store.ids(where: { _, _, status in (status ?? 0) >= 400 }).isEmpty { code = 1 }
    if let path = settings.harPath {
        do {
            try SessionExport.writeHAR(store.storedRecords(), to: path, secrets: settings.secrets)
        } catch {
            printToStandardError("reqtop: cannot write the HAR file \(path): \(error.readableDescription)")
            code = 1
        }
    }
    if let folder = settings.keepBodiesPath {
        do {
            let kept = try KeptBodies.write(store.storedRecords(), to: folder)
            printToStandardError("reqtop: kept \(kept.kept) bodies (\(ByteCount.format(kept.bytes))) in \(folder); index.tsv lists them"
                                 + (kept.released > 0 ? " (\(kept.released) released during the session are listed, not kept)" : ""))
        } catch {
            printToStandardError("reqtop: cannot keep the bodies in \(folder): \(error.readableDescription)")
            code = 1
        }
    }
    if case .signal = outcome.reason { return 130 }
    return code
}
