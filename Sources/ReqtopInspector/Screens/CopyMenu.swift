import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks
import ReqtopTerminalUI

/// `y`: the next key picks what of the selected task to copy.
final class CopyMenu: InspectorOverlay {
    /// Bodies copied as text are read up to this size; a larger one is saved with `b`.
    static let copyableBody = 1 << 20

    func renderBottomLine(_ frame: inout Frame, area: Rect) -> Bool { false }

    func handle(_ key: Key, app: InspectorApp) -> LoopAction {
        app.overlay = nil
        guard let record = app.selectedID.flatMap(app.store.record) else { return .redraw }
        let actions = app.actions
        func say(_ text: String) { app.say(text) }
        // The clipboard leaves the process: secrets are redacted unless --include-secrets.
        let redaction = actions.secrets.redaction
        // Says so only when something was hidden.
        func hidden(_ copied: String, _ original: String) -> String { copied == original ? "" : " (secrets redacted)" }
        switch key {
        case .char("u"):
            let url = redaction?.url(record.url.absoluteString) ?? record.url.absoluteString
            say(actions.copy(url, describing: "the URL" + hidden(url, record.url.absoluteString)))
        case .char("c"):
            var bodyFiles = BodyFiles(prefix: FileManager.default.temporaryDirectory.appendingPathComponent("reqtop-copy-\(record.id.rawValue)").path)
            let command = CurlWriter.command(for: record.request, bodyFiles: &bodyFiles, redaction: redaction)
            for file in bodyFiles.files { try? file.data.write(to: URL(fileURLWithPath: file.name)) }
            let secretsHidden = redaction.map { $0.request(record.request) != record.request } ?? false
            say(actions.copy(command, describing: "the curl command" + (secretsHidden ? " (secrets redacted)" : "")))
        case .char("h"):
            guard let command = HTTPieWriter.command(for: record.request, redaction: redaction) else {
                say("the request body is binary: an httpie command line cannot carry it (y c copies the curl command)")
                break
            }
            let secretsHidden = redaction.map { $0.request(record.request) != record.request } ?? false
            say(actions.copy(command, describing: "the httpie command" + (secretsHidden ? " (secrets redacted)" : "")))
        case .char("q"):
            guard let sent = record.sentHeads.last else {
                say("\(record.id) has not been sent: no request head to copy")
                break
            }
            let head = redaction?.head(sent) ?? sent
            say(actions.copy(head.lines.joined(separator: "\n"), describing: "the request head" + (head == sent ? "" : " (secrets redacted)")))
        case .char("r"):
            guard let received = record.response else {
                say("\(record.id) has no response head to copy")
                break
            }
            let head = redaction?.head(received) ?? received
            say(actions.copy(([head.statusLine] + head.headers.map(\.description)).joined(separator: "\n"),
                             describing: "the response head" + (head == received ? "" : " (secrets redacted)")))
        case .char("b"):
            guard let body = record.body, let bytes = try? body.prefix(Self.copyableBody + 1) else {
                say("\(record.id) has no body to copy")
                break
            }
            guard bytes.count <= Self.copyableBody, BodyView.isMostlyText(bytes) else {
                say("the body is binary or over 1 MB: b in the detail view saves it to a file")
                break
            }
            let copied = redaction?.body(bytes) ?? bytes
            say(actions.copy(String(decoding: copied, as: UTF8.self), describing: "the body" + (copied == bytes ? "" : " (secrets redacted)")))
        default:
            say("nothing copied")
        }
        return .redraw
    }
}
