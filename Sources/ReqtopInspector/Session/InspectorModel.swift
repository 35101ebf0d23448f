import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks
import ReqtopSync

/// The inspector's actions carried out on a real `SessionManager`: suspend, resume, cancel,
/// replay, new requests, and saving what the `TaskStore` recorded.
package final class InspectorModel: InspectorActions {
    package let manager: SessionManager
    package let store: TaskStore
    /// Runs a program with the terminal handed over to it (curses suspended); returns its exit status.
    /// Without it, `e` (edit in $EDITOR) is unavailable.
    package var runInTerminal: ((_ arguments: [String]) -> Int32)?
    /// Writes a control sequence straight to the terminal (OSC 52 for the clipboard). Without it,
    /// copies go to a file.
    package var sendToTerminal: ((String) -> Void)?
    /// OSC 52 payloads past this many bytes are refused by common terminals (xterm's limit is about 100 KB of base64).
    static let clipboardLimit = 74_000
    /// Called from the background when its progress changes (the loop redraws).
    package var onActivity: (@Sendable () -> Void)?
    private let saveQueue = DispatchQueue(label: "reqtop.save-har")
    /// The background save: a progress line while it runs, then its result until the app takes it.
    private let background = Protected<(running: String?, notice: String?)>((nil, nil))
    /// How many requests of a replayed list wait to be sent (shown in the header, counted when quitting).
    package var queued: () -> Int = { 0 }

    package var queuedCount: Int { queued() }

    /// Requests of a replayed list that were not sent: reported from any thread (`NotSentRequests`).
    package let notSent = NotSentRequests()

    package var notSentCount: Int { notSent.count }

    /// What copies and exports hide: the program's policy (`--include-secrets`, the private env values).
    package let secrets: SecretPolicy

    /// Who runs the tasks on screen that `manager` does not (a saved session, an attached app).
    package let owner: (any TaskOwner)?

    package init(manager: SessionManager, store: TaskStore, secrets: SecretPolicy, owner: (any TaskOwner)? = nil) {
        self.manager = manager
        self.store = store
        self.secrets = secrets
        self.owner = owner
    }

    /// This process's tasks not yet ended (another owner's go on without it).
    package var unfinishedCount: Int {
        if owner != nil { return manager.registeredTaskCount }
        let a = store.aggregates()
        return a.count(.running) + a.count(.suspended)
    }

    private func ownedElsewhere(_ id: TaskID) -> (any TaskOwner)? {
        guard let owner, owner.owns(id) else { return nil }
        return owner
    }

    package func preview(_ request: HTTPRequest) -> String {
        DryRun.text(for: request, configuration: manager.configuration)
    }

    /// The session's journal, where messages a task let go of are read back from.
    package var journal: JournalWriter?

    package func earlierMessages(of id: TaskID, from first: Int, through last: Int) -> [StreamMessageLog.Entry]? {
        guard let journal, ownedElsewhere(id) == nil else { return nil }
        return journal.messages(of: id, from: first, through: last)
    }

    package func bodySoFar(_ id: TaskID) -> Data? {
        ownedElsewhere(id) == nil ? manager.task(withID: id)?.bodyReceivedSoFar : nil
    }

    /// Why a task has no handle: it ended, or it is a proxy's CONNECT tunnel (relayed by the proxy, not a task of the engine).
    private func noHandle(_ id: TaskID) -> String {
        if let record = store.record(id), record.method == "CONNECT", record.name == "tunnel", !record.state.isTerminal {
            return "task \(id) is a CONNECT tunnel: the proxy relays it as it is (reqtop proxy --intercept shows the requests inside)"
        }
        return "task \(id) has already ended"
    }

    package func suspendOrResume(_ id: TaskID) -> String {
        if let owner = ownedElsewhere(id) { return owner.suspendOrResume(id) }
        guard let task = manager.task(withID: id) else { return noHandle(id) }
        do {
            if task.state == .running {
                try task.suspend()
                return "suspended \(id)"
            }
            try task.resume()
            return "resumed \(id)"
        } catch {
            return "\(error)"
        }
    }

    package func cancel(_ id: TaskID) -> String {
        if let owner = ownedElsewhere(id) { return owner.cancel(id) }
        guard let task = manager.task(withID: id) else { return noHandle(id) }
        do {
            try task.cancel()
            return "cancelled \(id)"
        } catch {
            return "\(error)"
        }
    }

    /// Sends the task's request again, unchanged: same method, URL, headers in order, body, options.
    package func replay(_ record: TaskRecord) -> String {
        if let refusal = record.resendRefusal { return refusal }
        let id = start(record.request, name: record.name)
        return "replaying \(record.id) as \(id)"
    }

    package func send(_ request: HTTPRequest) -> String {
        "sent \(start(request, name: nil)): \(request.method) \(request.url.absoluteString)"
    }

    /// Creates and resumes a task; the store sees it through the bus.
    @discardableResult
    package func start(_ request: HTTPRequest, name: String?) -> TaskID {
        let task = manager.dataTask(with: request, options: TaskOptions(name: name))
        try? task.resume()
        return task.id
    }

    /// Saves the session (or the marked tasks) as HAR on a background queue, streaming to disk;
    /// the bottom line shows its progress and then what was saved. The UI never waits for it.
    package func saveHAR(to path: String) -> String {
        guard background.snapshot.running == nil else { return "a HAR save is already running: wait for it to finish" }
        let marks = store.marks
        let records = store.storedRecords(only: marks.isEmpty ? nil : marks) // read back as the save goes
        let total = marks.isEmpty ? records.count : marks.count
        let background = self.background, changed = onActivity, secrets = self.secrets
        background.withLock { $0.running = "saving HAR: 0/\(total) tasks → \(path)" }
        saveQueue.async {
            let message = Self.saveHAR(records, total: total, to: path, marked: !marks.isEmpty, secrets: secrets) { done in
                background.withLock { $0.running = "saving HAR: \(done)/\(total) tasks → \(path)" }
                changed?()
            }
            // The save's transient memory (encoded entries, bodies read back) goes back to the
            // system, not only to malloc's free lists: RSS returns to where it was.
            _ = releaseFreeMemory(0)
            background.withLock { $0 = (nil, message) }
            changed?()
        }
        return "saving \(total) task\(total == 1 ? "" : "s") to \(path) in the background…"
    }

    /// Waits for a HAR save in the background to finish (quitting does, so the file is whole).
    package func waitForBackgroundWork() { saveQueue.sync {} }

    package var activity: String? { background.snapshot.running }

    package func takeNotice() -> String? {
        let finished = background.withLock { state in
            defer { state.notice = nil }
            return state.notice
        }
        return finished ?? notSent.takeNotice() ?? owner?.takeNotice()
    }

    private static func saveHAR(_ records: TaskStore.StoredRecords, total: Int, to path: String, marked: Bool, secrets: SecretPolicy, progress: (Int) -> Void) -> String {
        do {
            let summary = try SessionExport.writeHAR(records, to: path, secrets: secrets, progress: progress)
            let count = summary.tasks
            let skipped = total - count
            var notes: [String] = []
            if skipped > 0 { notes.append("\(skipped) without a response left out") }
            if summary.omittedBodies > 0 {
                notes.append("\(summary.omittedBodies) bod\(summary.omittedBodies == 1 ? "y" : "ies") released earlier to bound memory not included (see each entry's comment)")
            }
            let note = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
            return "saved \(count) \(marked ? "marked " : "")task\(count == 1 ? "" : "s") to \(path)\(note)"
                + (marked ? " (U clears the marks)" : "")
        } catch {
            return "could not save \(path): \(error.readableDescription)"
        }
    }

    package func exportCurl(_ record: TaskRecord, to path: String) -> String {
        var bodyFiles = BodyFiles(prefix: RequestBody.absolutePath(path + ".body", relativeTo: ""))
        let command = "#!/bin/sh\n" + CurlWriter.command(for: record.request, bodyFiles: &bodyFiles, redaction: secrets.redaction) + "\n"
        do {
            for file in bodyFiles.files { try file.data.write(to: URL(fileURLWithPath: file.name)) }
            try Data(command.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            // Runnable by its owner only: with --include-secrets it holds credentials.
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
            return "wrote the curl command of \(record.id) to \(path)" + (secrets.redacts ? " (secrets redacted)" : "")
        } catch {
            return "could not write \(path): \(error.readableDescription)"
        }
    }

    package func copy(_ text: String, describing what: String) -> String {
        let size = ByteCount.format(Int64(text.utf8.count))
        if let sendToTerminal, text.utf8.count <= Self.clipboardLimit {
            sendToTerminal("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
            return "copied \(what) (\(size)) to the clipboard with OSC 52 (tmux needs set-clipboard on)"
        }
        let path = FileManager.default.currentDirectoryPath + "/reqtop-copy.txt"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return "could not copy \(what): \(error.readableDescription)"
        }
        let why = sendToTerminal == nil ? "no terminal to copy through" : "\(size) is more than terminals take"
        return "\(why): wrote \(what) to \(path)"
    }

    package func saveBody(_ record: TaskRecord, to path: String) -> String {
        guard let body = record.body else { return "\(record.id) has no body to save" }
        var isDirectory: Bool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            return "\(path) is a folder: nothing saved (give a file name)"
        }
        do {
            switch body {
            case .data(let data): try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            case .file(let file):
                if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
                try FileManager.default.copyItem(at: file.url, to: URL(fileURLWithPath: path))
            }
            return "saved the body of \(record.id) (\(ByteCount.format(body.count))) to \(path)"
        } catch {
            return "could not save \(path): \(error.readableDescription)"
        }
    }

    package func edit(_ record: TaskRecord) -> String {
        guard let runInTerminal else { return "editing needs the interactive terminal" }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-edit-\(record.id.rawValue)-\(UUID().uuidString.prefix(8)).http")
        var bodyFiles = BodyFiles(prefix: file.deletingPathExtension().path + ".body")
        defer {
            try? FileManager.default.removeItem(at: file)
            for body in bodyFiles.files { try? FileManager.default.removeItem(atPath: body.name) }
        }
        let original: String
        do {
            // The request as it is, secrets too (redacted, the edited copy would send "[redacted]"), in files
            // only the user can read, removed when the editor is done.
            original = HTTPFileWriter.text(for: RequestSpec(record.request, name: record.name), isTemplate: false,
                                           bodyFiles: &bodyFiles, redaction: nil)
            for body in bodyFiles.files + [(name: file.path, data: Data(original.utf8))] {
                guard FileManager.default.createFile(atPath: body.name, contents: body.data, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteNoPermission, userInfo: ["NSFilePath": body.name])
                }
            }
        } catch {
            return "could not write \(file.path): \(error.readableDescription)"
        }
        let editor = ProcessInfo.processInfo.environment["VISUAL"] ?? ProcessInfo.processInfo.environment["EDITOR"] ?? "vi"
        let status = runInTerminal(editor.split(separator: " ").map(String.init) + [file.path])
        guard status == 0 else { return "\(editor) exited with status \(status): nothing sent" }
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            let bodiesUnchanged = bodyFiles.files.allSatisfy { FileManager.default.contents(atPath: $0.name) == $0.data }
            if text == original && bodiesUnchanged { return "the request is unchanged: nothing sent" }
            let list = try RequestListLoader.load(text: text, path: file.path, format: .http)
            let resolver = RequestResolver(list: list)
            try resolver.validate()
            guard !list.specs.isEmpty else { return "the edited file has no request: nothing sent" }
            var sent: [String] = []
            for index in list.specs.indices {
                sent.append("\(start(try resolver.resolve(index), name: list.specs[index].name))")
            }
            return "sent the edited request as \(sent.joined(separator: ", "))"
        } catch let error as RequestListError {
            return "not sent: \(error.message) (line \(error.line))"
        } catch {
            return "not sent: \(error)"
        }
    }
}

/// glibc's `malloc_trim`: hands free heap pages back to the system (not in the Glibc module map).
@_silgen_name("malloc_trim")
private func releaseFreeMemory(_ pad: Int) -> Int32
