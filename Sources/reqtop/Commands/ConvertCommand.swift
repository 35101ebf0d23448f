import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ReqtopInspector
import ReqtopNetworking
import ReqtopRequestLists
import ReqtopTasks

/// `reqtop convert IN --to http|har|curl [-o OUT]`.
enum ConvertCommand: Command {
    static let name = "convert"
    static let arguments = "IN|SESSION --to http|har|curl|hurl|postman|locust [-o OUT] [--env NAME] [--var NAME=VALUE]"
    static let briefArguments = "IN|ID --to FORMAT"
    static let abstract = "convert a request list to http, har, curl, hurl, postman or a Locust locustfile"
    static let discussion = """
        Converts a request list (any format reqtop reads) to another format; reqtop reads the
        result back into the same requests. .http output keeps {{variables}}; HAR, curl, Hurl and
        Postman output are resolved with --env and --var (references to another request's
        response, and what scripts or captures set, stay as {{…}} text, with a warning; a Hurl
        list's response checks stay in Hurl output). Bodies that cannot be written inline
        go to files named OUT.body-N.bin beside the output. --to locust writes a Locust locustfile
        (python) that sends the same requests in order for every simulated user, chained values
        extracted the same way: for load tests across machines (locust --master / --worker).
        IN may also be a session (an id from reqtop sessions, or a journal file): --to har writes
        every task with its responses, bodies and timings; http and curl write the requests as sent.
        """

    static let target = CommandOption.value("to", "FORMAT", help: "http, har, curl, hurl, postman or locust (required)")
    static let output = CommandOption.value("output", short: "o", "OUT", help: "write to OUT instead of standard output")
    static let options = [target, output] + VariableOptions.options + SecretOptions.options

    static func run(_ parsed: ParsedCommandLine) throws(UsageError) -> Int32 {
        guard parsed.positionals.count == 1 else {
            throw UsageError(parsed.positionals.isEmpty ? "no input file given" : "give exactly one input file")
        }
        let input = parsed.positionals[0]
        guard let name = parsed.value(target) else { throw UsageError("--to http|har|curl|hurl|postman|locust is required") }
        let variables = try VariableOptions.variables(parsed)
        if let journal = journalInput(input), name != "locust" {
            return convertSession(journal, to: name, output: parsed.value(output), secrets: parsed.secrets)
        }
        if !FileManager.default.fileExists(atPath: input), input.first?.isNumber == true {
            printToStandardError("reqtop convert: " + Journals.whyNotFound(input)) // looks like a session id
            return 2
        }
        if name == "locust" {
            return locust(input, output: parsed.value(output), environment: parsed.value(VariableOptions.environment),
                          environmentFile: parsed.value(VariableOptions.environmentFile), variables: variables, secrets: parsed.secrets)
        }
        guard let format = RequestListFormat(rawValue: name) else {
            throw UsageError("--to must be http, har, curl, hurl, postman or locust, got '\(name)'")
        }
        return convert(input, to: format, output: parsed.value(output), environment: parsed.value(VariableOptions.environment),
                       environmentFile: parsed.value(VariableOptions.environmentFile), variables: variables, secrets: parsed.secrets)
    }

    private static func locust(_ input: String, output: String?, environment: String?, environmentFile: String?, variables: [String: String],
                               secrets: SecretPolicy) -> Int32 {
        write(to: output, secrets: secrets) {
            let inputs = try loadInputs(files: [input], environment: environment, environmentFile: environmentFile, variables: variables,
                                        secrets: secrets)
            let (text, warnings) = try LocustWriter.text(for: inputs[0].list, variables: inputs[0].variables)
            for warning in warnings { printToStandardError(warning.description) }
            return Data(text.utf8)
        }
    }

    private static func convert(_ input: String, to format: RequestListFormat, output: String?, environment: String?,
                                environmentFile: String?, variables: [String: String], secrets: SecretPolicy) -> Int32 {
        write(to: output, secrets: secrets) {
            let inputs = try loadInputs(files: [input], environment: environment, environmentFile: environmentFile, variables: variables,
                                        secrets: secrets)
            registerSecrets(of: inputs[0].list.specs.map { ($0.headers, $0.url, $0.body.flatMap(\.inlineData)) }, with: secrets)
            // Body files go beside the output (into the current directory when writing to stdout), named
            // by absolute path so the list reads back from anywhere.
            let prefix = RequestBody.absolutePath((output ?? input.lastPathComponent) + ".body", relativeTo: "")
            let converted = try RequestListLoader.convert(inputs[0].list, variables: inputs[0].variables, to: format,
                                                          creator: (name: "reqtop", version: ReqtopVersion.string),
                                                          bodyFilePrefix: prefix, redaction: secrets.redaction)
            for warning in converted.warnings { printToStandardError(warning.description) }
            if secrets.redacts, ByteSearch.firstOffset(of: Redaction.marker.utf8, in: converted.data) != nil,
               !inputMentions(Redaction.marker, inputs[0].list) {
                printToStandardError("reqtop convert: credentials and secret values are written as \(Redaction.marker) "
                                     + "(--include-secrets keeps them)")
            }
            for file in converted.bodyFiles.files {
                try file.data.write(to: URL(fileURLWithPath: file.name))
                printToStandardError("wrote a request body to \(file.name)")
            }
            return converted.data
        }
    }

    /// Whether the list itself has `text` (in a URL, a header or an inline body).
    private static func inputMentions(_ text: String, _ list: RequestList) -> Bool {
        list.specs.contains { spec in
            spec.url.containsBytes(text) || spec.headers.contains { $0.value.containsBytes(text) }
                || spec.body.flatMap(\.inlineData).map { ByteSearch.firstOffset(of: text.utf8, in: $0) != nil } == true
        }
    }

    /// The journal `input` names: a journal file, or a session id when no such file exists.
    private static func journalInput(_ input: String) -> URL? {
        if FileManager.default.fileExists(atPath: input) {
            let head = (try? OpenFile(forReadingAtPath: input).read(upToCount: 200)) ?? Data()
            return Journals.isJournal(head) ? URL(fileURLWithPath: input) : nil
        }
        return Journals.locate(input)
    }

    /// A journaled session as HAR (responses included) or as the requests it sent.
    private static func convertSession(_ journal: URL, to name: String, output: String?, secrets: SecretPolicy) -> Int32 {
        guard let format = RequestListFormat(rawValue: name) else {
            printToStandardError("reqtop convert: --to must be http, har, curl, hurl or postman for a session, got '\(name)'")
            return 2
        }
        return write(to: output, secrets: secrets) {
            let store = TaskStore()
            store.apply(try Recording.load(journal).events)
            let records = store.allRecords
            registerSecrets(of: records.map { ($0.request.headers + ($0.response?.headers ?? []), $0.url.absoluteString, $0.request.body.data) },
                            with: secrets)
            if format == .har {
                let entries = SessionExport.harEntries(from: records)
                return try HARWriter.data(entries: entries, creator: (name: "reqtop", version: ReqtopVersion.string), redaction: secrets.redaction)
            }
            let list = RequestList(specs: records.map { RequestSpec($0.request, name: $0.name) }, fileVariables: [],
                                   sourcePath: journal.path, format: .http)
            let prefix = RequestBody.absolutePath((output ?? journal.deletingPathExtension().lastPathComponent) + ".body", relativeTo: "")
            let converted = try RequestListLoader.convert(list, variables: VariableContext(), to: format,
                                                          creator: (name: "reqtop", version: ReqtopVersion.string), bodyFilePrefix: prefix,
                                                          redaction: secrets.redaction)
            for file in converted.bodyFiles.files { try file.data.write(to: URL(fileURLWithPath: file.name)) }
            return converted.data
        }
    }

    /// A secret of one request is hidden in every other one too (a token sent in one header and
    /// in another request's JSON body): its values are known before anything is written.
    private static func registerSecrets(of exchanges: [(headers: [HTTPHeader], url: String, body: Data?)], with secrets: SecretPolicy) {
        for exchange in exchanges {
            secrets.register(Redaction.secretValues(headers: exchange.headers, url: exchange.url, body: exchange.body))
        }
    }

    /// Writes what `produce` makes to `output` (standard output when nil). Exit status: 0, 2 for a
    /// request-list error (printed with its location), 1 for anything else.
    private static func write(to output: String?, secrets: SecretPolicy, _ produce: () throws -> Data) -> Int32 {
        do {
            let data = try produce()
            if let output {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
                // With --include-secrets the file holds credentials: its owner's alone.
                if !secrets.redacts { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output) }
            } else {
                FileDescriptorSink.standardOutput.write(String(decoding: data, as: UTF8.self))
            }
            return 0
        } catch let error as RequestListError {
            printToStandardError(error.description)
            return 2
        } catch {
            printToStandardError("reqtop convert: \(error.readableDescription)")
            return 1
        }
    }
}
